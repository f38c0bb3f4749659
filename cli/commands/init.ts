/**
 * `campaignctl init [DIR]`: scaffolds a campaign repository (see ../init/scaffold.ts for what and
 * where). Reads the package's schemas and `examples/ci/` at run time, so the pipelines written are
 * those this campaignctl ships. Never overwrites: a file that exists with other content stops the
 * run before anything is written (a file already equal to what would be written is left as it is);
 * an existing `.gitignore` is kept and gets the patterns it lacks appended (../init/gitignore.ts);
 * then every file is written or none (`saveFiles`). Prints the next steps on stdout. Registered in
 * `../register/init.ts`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { packageRoot } from "../../src/sandbox/paths.js";
import { saveFiles } from "../adapters/files.js";
import type { CiSystem } from "../init/ci-systems.js";
import { mergeGitignore } from "../init/gitignore.js";
import {
  nextSteps,
  POLICY_PATH,
  type ScaffoldFile,
  type SourceFile,
  scaffoldFiles,
  schemaCopyPath,
} from "../init/scaffold.js";
import { failWith } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { type Outcome, success } from "../output/outcome.js";
import { diskProbe, type SchemaName, type SchemaProbe, schemaReference } from "../output/schema-reference.js";

/** The flags of `init`, as commander parses them. */
export interface InitFlags {
  readonly ci: CiSystem;
}

export async function initCommand(dir: string, flags: InitFlags, io: Io): Promise<Outcome> {
  const root = resolve(io.cwd, dir);
  if (existsSync(root) && !statSync(root).isDirectory()) return failWith([notADirectory(dir)], new Map(), io);
  const pkg = packageRoot();
  const schemas = {
    campaign: readFileSync(join(pkg, "schemas", "campaign.schema.json"), "utf8"),
    policy: readFileSync(join(pkg, "schemas", "policy.schema.json"), "utf8"),
  };
  const files = scaffoldFiles({
    ci: flags.ci,
    schemas,
    ciSources: flags.ci === "none" ? [] : listFiles(join(pkg, "examples", "ci")),
    schemaFor: (path, name) => schemaReference(join(root, path), name, withCopies(root)),
  });
  const shown = (path: string) => relative(io.cwd, join(root, path)) || ".";
  // An existing .gitignore is the repository's: what campaignctl needs is added to it, never refused.
  const merged = files
    .map((f) => (f.path === GITIGNORE_PATH ? withGitignore(join(root, f.path), f) : f))
    .filter((f) => f.path !== POLICY_PATH || !existsSync(join(root, POLICY_TWIN)));
  const taken = merged.filter((f) => f.path !== GITIGNORE_PATH && differs(join(root, f.path), f.text));
  if (taken.length > 0) return failWith([exists(taken, shown)], new Map(), io);
  const policy = files.find((f) => f.path === POLICY_PATH);
  if (policy !== undefined && differs(join(root, POLICY_TWIN), policy.text))
    return failWith([twinned(shown)], new Map(), io);
  const toWrite = merged
    .filter(
      (f) =>
        !existsSync(join(root, f.path)) || (f.path === GITIGNORE_PATH && differs(join(root, f.path), f.text)),
    )
    .map((f) => ({ path: shown(f.path), text: f.text, what: f.what }));
  const written = await saveFiles(io, toWrite);
  if (written.length > 0) return failWith(written, new Map(), io);
  io.stdout(nextSteps(shown("."), flags.ci, join(pkg, "docs")));
  return success;
}

const GITIGNORE_PATH = ".gitignore";
/**
 * The other spelling of the policy file, which policy discovery reads in the same directory: two
 * there stop every run (`policy.ambiguous`), so one that exists is the policy file as it stands.
 */
const POLICY_TWIN = POLICY_PATH.replace(/\.yaml$/, ".yml");

/** The scaffold's .gitignore, or the existing one with the patterns it lacks appended. */
function withGitignore(absolute: string, file: ScaffoldFile): ScaffoldFile {
  let existing: string;
  try {
    if (!existsSync(absolute) || !statSync(absolute).isFile()) return file;
    existing = readFileSync(absolute, "utf8");
  } catch {
    return file;
  }
  const merge = mergeGitignore(existing, file.text);
  if (merge === undefined) return { ...file, text: existing };
  return {
    ...file,
    text: merge.text,
    what: `.gitignore with ${merge.added.length} pattern${merge.added.length === 1 ? "" : "s"} added (${merge.added.join(" ")})`,
  };
}

/** The disk, plus the schema copies this run writes under `root`. */
function withCopies(root: string): SchemaProbe {
  const copies = new Map<string, SchemaName>([
    [join(root, schemaCopyPath("campaign")), "campaign"],
    [join(root, schemaCopyPath("policy")), "policy"],
  ]);
  return {
    exists: diskProbe.exists,
    isSchema: (absolute, name) => copies.get(absolute) === name || diskProbe.isSchema(absolute, name),
  };
}

/** Every file under `dir`, by its path relative to it with `/` (hidden files included). */
function listFiles(dir: string, prefix = ""): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) return listFiles(join(dir, entry.name), path);
      return entry.isFile() ? [{ path, text: readFileSync(join(dir, entry.name), "utf8") }] : [];
    });
}

/** Whether something is at `absolute` other than a file with exactly `text`. */
function differs(absolute: string, text: string): boolean {
  if (!existsSync(absolute)) return false;
  try {
    return readFileSync(absolute, "utf8") !== text;
  } catch {
    return true; // a directory, or unreadable: not ours to replace
  }
}

function exists(taken: readonly ScaffoldFile[], shown: (path: string) => string): Diagnostic {
  const names = taken.map((f) => shown(f.path));
  return {
    severity: "error",
    code: "cli.file-exists",
    message: `init would overwrite ${names.length === 1 ? "a file that exists" : `${names.length} files that exist`}: ${names.join(", ")}; nothing was written`,
    hint: "move or delete them, or run init in another directory (campaignctl init DIR)",
  };
}

function twinned(shown: (path: string) => string): Diagnostic {
  return {
    severity: "error",
    code: "cli.file-exists",
    message: `init would write ${shown(POLICY_PATH)} beside the policy file ${shown(POLICY_TWIN)}, and two policy files in one directory stop every run (policy.ambiguous); nothing was written`,
    hint: "move or delete it, or run init in another directory (campaignctl init DIR)",
  };
}

function notADirectory(dir: string): Diagnostic {
  return {
    severity: "error",
    code: "cli.file-exists",
    message: `${dir} exists and is not a directory; nothing was written`,
    hint: "give init a new or existing directory",
  };
}
