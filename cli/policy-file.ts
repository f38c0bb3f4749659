/**
 * Finding and reading the policy file, the IO half of policy as code: `--policy FILE`, else the
 * nearest `campaignctl.policy.yaml` above each campaign file the run loads: in the file's directory,
 * then in each parent directory up to the repository root (the first directory holding a `.git`
 * file or directory), or up to the filesystem root outside a repository. Discovery starts from the
 * files read, never from the paths given, so `plan DIR` and `apply PLANFILE` (which names the same
 * files) find the same policy. Files that lead to different policy files are ambiguous (name one
 * with --policy); a run with no campaign files has no discovered policy. The walk and the choice
 * are pure decisions over a probe of the file system; the text is parsed by the pure `parsePolicy`.
 */
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { POLICY_FILE_NAME } from "../src/campaign/read-files.js";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import type { Policy } from "../src/policy/model.js";
import { parsePolicy } from "../src/policy/parse.js";
import { errnoCode } from "./files.js";

export type LoadedPolicy =
  | { readonly ok: true; readonly policy: Policy | null; readonly text: string | null }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * What is at an absolute path: something (a file, a directory, a symbolic link, even a dangling
 * one), nothing, or a directory on the way that cannot be looked into.
 */
export type Probe = "present" | "absent" | "unreadable";

/** A place on disk: `absolute` for the file system, `shown` as the user spelled the path it came from. */
export interface Place {
  readonly absolute: string;
  readonly shown: string;
}

/**
 * The nearest policy file from the directory `start` up: `start` first, then each parent, stopping
 * after the first directory that holds `.git` (the repository root) or at the filesystem root.
 * Anything named `campaignctl.policy.yaml` counts (an unreadable one is reported when it is read,
 * never skipped). A directory that cannot be looked into ends the walk with no policy: it is not
 * the user's input. The shown path walks up as the start was spelled (`campaigns/gotv` → `.` → `..`).
 */
export function nearestPolicy(start: Place, probe: (absolute: string) => Probe): Place | null {
  let dir = start;
  for (;;) {
    const candidate = {
      absolute: join(dir.absolute, POLICY_FILE_NAME),
      shown: join(dir.shown, POLICY_FILE_NAME),
    };
    const here = probe(candidate.absolute);
    if (here === "present") return candidate;
    if (here === "unreadable") return null;
    if (probe(join(dir.absolute, ".git")) !== "absent") return null;
    const parent = dirname(dir.absolute);
    if (parent === dir.absolute) return null;
    dir = { absolute: parent, shown: join(dir.shown, "..") };
  }
}

/** A campaign file (as shown) and the policy file nearest to it; `identity` is the same for two spellings of one policy file. */
export interface FoundPolicy {
  readonly file: string;
  readonly policy: Place;
  readonly identity: string;
}

export type PolicyChoice =
  | { readonly kind: "none" }
  | { readonly kind: "one"; readonly shown: string }
  | { readonly kind: "ambiguous"; readonly diagnostic: Diagnostic };

/**
 * The one policy file the campaign files of a run lead to (the first spelling of it wins), or the
 * ambiguity, naming each policy file and the first file that leads to it. A file with no policy
 * above it is not in `found`: the others' policy applies to the run.
 */
export function choosePolicy(found: readonly FoundPolicy[]): PolicyChoice {
  const byIdentity = new Map<string, FoundPolicy>();
  for (const f of found) if (!byIdentity.has(f.identity)) byIdentity.set(f.identity, f);
  const distinct = [...byIdentity.values()];
  const first = distinct[0];
  if (first === undefined) return { kind: "none" };
  if (distinct.length === 1) return { kind: "one", shown: first.policy.shown };
  return {
    kind: "ambiguous",
    diagnostic: {
      severity: "error",
      code: "policy.ambiguous",
      message: `the campaign files lead to different policy files: ${distinct
        .map((f) => `${f.policy.shown} (nearest to ${f.file})`)
        .join(", ")}`,
      hint: "name the one that applies with --policy FILE (see docs/policy.md)",
    },
  };
}

/**
 * The policy for a run whose campaign files are `files` (each file's path as shown, relative to
 * `cwd` or absolute), or null when there is none. Call it after reading the files.
 */
export function loadPolicy(flag: string | undefined, files: readonly string[], cwd: string): LoadedPolicy {
  let shown: string;
  if (flag !== undefined) shown = flag;
  else {
    const choice = choosePolicy(discover(files, cwd));
    switch (choice.kind) {
      case "none":
        return { ok: true, policy: null, text: null };
      case "ambiguous":
        return { ok: false, diagnostics: [choice.diagnostic] };
      case "one":
        shown = choice.shown;
        break;
    }
  }
  let text: string;
  try {
    text = readFileSync(resolve(cwd, shown), "utf8");
  } catch (error) {
    return {
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "policy.file-unreadable",
          message: `cannot read the policy file ${shown} (${errnoCode(error)})`,
          hint: "pass an existing policy file with --policy FILE (see docs/policy.md)",
        },
      ],
    };
  }
  const parsed = parsePolicy(shown, text);
  return parsed.ok
    ? { ok: true, policy: parsed.policy, text }
    : { ok: false, diagnostics: parsed.diagnostics };
}

/**
 * The nearest policy file of each campaign file, walked up from the file's directory as it was
 * spelled (`campaigns/gotv/a.yaml` → `campaigns/gotv/campaignctl.policy.yaml`, `/abs/x.yaml` → `/abs/...`).
 * One walk per directory, and one probe per path: thousands of files cost a few dozen `lstat`s.
 */
function discover(files: readonly string[], cwd: string): FoundPolicy[] {
  const probed = new Map<string, Probe>();
  const cachedProbe = (absolute: string): Probe => {
    let seen = probed.get(absolute);
    if (seen === undefined) {
      seen = probe(absolute);
      probed.set(absolute, seen);
    }
    return seen;
  };
  const byDirectory = new Map<string, FoundPolicy | null>();
  const found: FoundPolicy[] = [];
  for (const file of files) {
    const dir = dirname(file);
    let nearest = byDirectory.get(dir);
    if (nearest === undefined) {
      const policy = nearestPolicy({ absolute: resolve(cwd, dir), shown: dir }, cachedProbe);
      nearest = policy === null ? null : { file, policy, identity: identity(policy.absolute) };
      byDirectory.set(dir, nearest);
    }
    if (nearest !== null) found.push(nearest);
  }
  return found;
}

function probe(absolute: string): Probe {
  try {
    lstatSync(absolute);
    return "present";
  } catch (error) {
    const code = errnoCode(error);
    return code === "ENOENT" || code === "ENOTDIR" ? "absent" : "unreadable";
  }
}

/** The file's real path (one file reached through two symbolic links is one policy), else its path. */
function identity(absolute: string): string {
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}
