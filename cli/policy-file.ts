/**
 * Finding and reading the policy files, the IO half of policy as code: every
 * `campaignctl.policy.yaml` above each campaign file the run loads (in the file's directory, then in
 * each parent directory up to the repository root, the first directory holding a `.git` file or
 * directory, or up to the filesystem root outside a repository), combined as floors with
 * `--policy FILE` on top (src/policy/combine.ts): no file and no flag can drop or loosen a rule
 * silently. Discovery starts from the files read, never from the paths given, so `plan DIR` and
 * `apply PLANFILE` (which names the same files) find the same policy. Files that lead to different
 * chains of policy files are ambiguous unless --policy is given; a run with no campaign files has no
 * discovered policy. The walk and the choice are pure decisions over a probe of the file system;
 * the texts are parsed by the pure `parsePolicy`.
 */
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { POLICY_FILE_NAME } from "../src/campaign/read-files.js";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import { combinePolicies } from "../src/policy/combine.js";
import type { Policy, PolicyRuleName } from "../src/policy/model.js";
import { parsePolicy } from "../src/policy/parse.js";
import { errnoCode } from "./files.js";

/**
 * The policy in force for a run: combined from every policy file above its campaign files and
 * `--policy` (see src/policy/combine.ts), with the text of each file read (for source excerpts) and
 * the warnings that name each loosening; or the problems that stop the run (an unreadable or
 * invalid policy file, an ambiguity, a loosening not asked for).
 */
export type LoadedPolicy =
  | {
      readonly ok: true;
      readonly policy: Policy | null;
      readonly texts: ReadonlyMap<string, string>;
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export type Probe = "present" | "absent" | "unreadable";

/** A place on disk: `absolute` for the file system, `shown` as the user spelled the path it came from. */
export interface Place {
  readonly absolute: string;
  readonly shown: string;
}

/**
 * Every policy file from the directory `start` up, farthest first: `start`, then each parent,
 * stopping after the first directory that holds `.git` (the repository root) or at the filesystem
 * root. Anything named `campaignctl.policy.yaml` counts (an unreadable one is reported when it is
 * read, never skipped). A directory that cannot be looked into ends the walk: it is not the user's
 * input. The shown path walks up as the start was spelled (`campaigns/gotv` → `.` → `..`).
 */
export function policyChain(start: Place, probe: (absolute: string) => Probe): Place[] {
  const nearestFirst: Place[] = [];
  let dir = start;
  for (;;) {
    const candidate = {
      absolute: join(dir.absolute, POLICY_FILE_NAME),
      shown: join(dir.shown, POLICY_FILE_NAME),
    };
    const here = probe(candidate.absolute);
    if (here === "present") nearestFirst.push(candidate);
    if (here === "unreadable") break;
    if (probe(join(dir.absolute, ".git")) !== "absent") break;
    const parent = dirname(dir.absolute);
    if (parent === dir.absolute) break;
    dir = { absolute: parent, shown: join(dir.shown, "..") };
  }
  return nearestFirst.reverse();
}

/**
 * A campaign file (as shown) and the policy files above it, farthest first; `identity` of each is
 * the same for two spellings of one policy file.
 */
export interface FoundPolicies {
  readonly file: string;
  readonly chain: readonly (Place & { readonly identity: string })[];
}

export type PolicyChoice =
  | { readonly kind: "layers"; readonly layers: readonly Place[] }
  | { readonly kind: "ambiguous"; readonly diagnostic: Diagnostic };

/**
 * The policy files that make up the run's policy, farthest first. When the campaign files lead to
 * different chains of policy files, that is an ambiguity (naming the nearest policy of each and the
 * first file that leads to it), unless `--policy` is given: then every policy file found above any
 * campaign file is a floor (farthest first by depth), and `--policy` goes on top of them. A file
 * with no policy above it does not make a run ambiguous: the others' policies apply to the run.
 */
export function choosePolicies(found: readonly FoundPolicies[], flagGiven: boolean): PolicyChoice {
  const withPolicy = found.filter((f) => f.chain.length > 0);
  const keyOf = (f: FoundPolicies) => f.chain.map((p) => p.identity).join("\n");
  const byChain = new Map<string, FoundPolicies>();
  for (const f of withPolicy) if (!byChain.has(keyOf(f))) byChain.set(keyOf(f), f);
  const distinct = [...byChain.values()];
  if (distinct.length > 1 && !flagGiven)
    return {
      kind: "ambiguous",
      diagnostic: {
        severity: "error",
        code: "policy.ambiguous",
        message: `the campaign files lead to different policy files: ${distinct
          .map((f) => `${f.chain.at(-1)?.shown} (nearest to ${f.file})`)
          .join(", ")}`,
        hint: "run them separately, or name the policy that applies on top of every one found with --policy FILE (see docs/policy.md)",
      },
    };
  const seen = new Map<string, Place & { readonly identity: string }>();
  for (const f of distinct) for (const p of f.chain) if (!seen.has(p.identity)) seen.set(p.identity, p);
  const depth = (p: Place) => p.absolute.split(/[\\/]/).length;
  const layers = [...seen.values()].sort((a, b) => depth(a) - depth(b));
  return { kind: "layers", layers };
}

/** The flags that shape the run's policy. */
export interface PolicyFlags {
  /** `--policy FILE`: one more policy on top of those found (never instead of them). */
  readonly policy?: string;
  /** `--loosen-policy RULE` (repeatable): rules turned off for this run, shown in every output. */
  readonly loosenPolicy?: readonly PolicyRuleName[];
}

/**
 * The policy for a run whose campaign files are `files` (each file's path as shown, relative to
 * `cwd` or absolute): every policy file above them combined as floors, `--policy` on top, and the
 * `--loosen-policy` rules turned off. Call it after reading the files.
 */
export function loadPolicy(flags: PolicyFlags, files: readonly string[], cwd: string): LoadedPolicy {
  const choice = choosePolicies(discover(files, cwd), flags.policy !== undefined);
  if (choice.kind === "ambiguous") return { ok: false, diagnostics: [choice.diagnostic] };
  const shown = [...choice.layers.map((p) => p.shown), ...(flags.policy === undefined ? [] : [flags.policy])];
  const texts = new Map<string, string>();
  const layers: Policy[] = [];
  const problems: Diagnostic[] = [];
  for (const file of shown) {
    let text: string;
    try {
      text = readFileSync(resolve(cwd, file), "utf8");
    } catch (error) {
      problems.push({
        severity: "error",
        code: "policy.file-unreadable",
        message: `cannot read the policy file ${file} (${errnoCode(error)})`,
        hint: "pass an existing policy file with --policy FILE (see docs/policy.md)",
      });
      continue;
    }
    texts.set(file, text);
    const parsed = parsePolicy(file, text);
    if (parsed.ok) layers.push(parsed.policy);
    else problems.push(...parsed.diagnostics);
  }
  if (problems.length > 0) return { ok: false, diagnostics: problems };
  const combined = combinePolicies(layers, flags.loosenPolicy ?? []);
  if (combined.diagnostics.some((d) => d.severity === "error"))
    return { ok: false, diagnostics: combined.diagnostics };
  return { ok: true, policy: combined.policy, texts, diagnostics: combined.diagnostics };
}

/**
 * The policy files above each campaign file, walked up from the file's directory as it was spelled
 * (`campaigns/gotv/a.yaml` → `campaigns/gotv/campaignctl.policy.yaml`, `campaigns/...`, `/abs/x.yaml`
 * → `/abs/...`). One walk per directory, and one probe per path: thousands of files cost a few
 * dozen `lstat`s.
 */
function discover(files: readonly string[], cwd: string): FoundPolicies[] {
  const probed = new Map<string, Probe>();
  const cachedProbe = (absolute: string): Probe => {
    let seen = probed.get(absolute);
    if (seen === undefined) {
      seen = probe(absolute);
      probed.set(absolute, seen);
    }
    return seen;
  };
  const byDirectory = new Map<string, FoundPolicies["chain"]>();
  return files.map((file) => {
    const dir = dirname(file);
    let chain = byDirectory.get(dir);
    if (chain === undefined) {
      chain = policyChain({ absolute: resolve(cwd, dir), shown: dir }, cachedProbe).map((p) => ({
        ...p,
        identity: identity(p.absolute),
      }));
      byDirectory.set(dir, chain);
    }
    return { file, chain };
  });
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
