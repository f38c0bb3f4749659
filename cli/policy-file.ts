/**
 * Finding and reading the policy files, the IO half of policy as code: every
 * `campaignctl.policy.yaml` (or `.yml`) above each campaign file the run loads (in the file's
 * directory, then in each parent directory up to the OUTERMOST repository root, the farthest
 * directory holding a `.git` file or directory, or up to the filesystem root outside a repository;
 * a nested repository does not end the search), combined as floors with
 * `--policy FILE` on top (src/policy/combine.ts): no file and no flag can drop or loosen a rule
 * silently. Discovery starts from the files read, never from the paths given, so `plan DIR` and
 * `apply PLANFILE` (which names the same files) find the same policy. Files that lead to different
 * chains of policy files are ambiguous unless --policy is given; a run with no campaign files has no
 * discovered policy. A misspelt policy file on the way is an error, never skipped, and
 * `--require-policy` fails a run that finds none. The walk and the choice are pure decisions over a
 * look into each directory; the texts are parsed by the pure `parsePolicy`.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { POLICY_FILE_NAME, POLICY_FILE_NAMES, policyNearMiss } from "../src/campaign/policy-file-name.js";
import { fileStart } from "../src/campaign/source-range.js";
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

/**
 * What one directory holds that the walk cares about. `policies`: the policy files' names there
 * (`campaignctl.policy.yaml`, `.yml`; anything by that name counts: an unreadable one is reported
 * when it is read, never skipped); `nearMisses`: names that look like a misspelt policy file (empty
 * when the directory cannot be listed, only looked into); `repository`: it holds `.git`, a file or
 * a directory.
 */
export interface DirectoryLook {
  readonly policies: readonly string[];
  readonly nearMisses: readonly string[];
  readonly repository: boolean;
}

/** A place on disk: `absolute` for the file system, `shown` as the user spelled the path it came from. */
export interface Place {
  readonly absolute: string;
  readonly shown: string;
}

/**
 * The policy files above a directory (farthest first), the misspelt ones on the way, and the policy
 * files above the outermost repository root (not read: the walk ends at that root), with that root.
 */
export interface PolicyWalk {
  readonly chain: readonly Place[];
  readonly nearMisses: readonly Place[];
  readonly outside: readonly (Place & { readonly root: Place })[];
}

/**
 * Every policy file from the directory `start` up, farthest first: `start`, then each parent up to
 * the OUTERMOST repository root of the working tree (the farthest directory holding `.git`), or up
 * to the filesystem root when no directory on the way holds one. A nested repository (a submodule,
 * a checkout inside the tree, a stray `.git`) does not end the walk, so no file below the root can
 * cut the root's policy off. The shown path walks up as the start was spelled
 * (`campaigns/gotv` → `.` → `..`). Pure over `look`.
 */
export function policyChain(start: Place, look: (absoluteDir: string) => DirectoryLook): PolicyWalk {
  const seen: { readonly dir: Place; readonly look: DirectoryLook }[] = [];
  let dir = start;
  for (;;) {
    seen.push({ dir, look: look(dir.absolute) });
    const parent = dirname(dir.absolute);
    if (parent === dir.absolute) break;
    dir = { absolute: parent, shown: join(dir.shown, "..") };
  }
  let outermost = -1;
  seen.forEach((s, i) => {
    if (s.look.repository) outermost = i;
  });
  const inTree = outermost === -1 ? seen : seen.slice(0, outermost + 1);
  const at = (d: Place, name: string): Place => ({
    absolute: join(d.absolute, name),
    shown: join(d.shown, name),
  });
  const root = outermost === -1 ? undefined : seen[outermost]?.dir;
  const above = outermost === -1 ? [] : seen.slice(outermost + 1);
  return {
    chain: [...inTree].reverse().flatMap((s) => s.look.policies.map((name) => at(s.dir, name))),
    nearMisses: [...inTree].reverse().flatMap((s) => s.look.nearMisses.map((name) => at(s.dir, name))),
    outside:
      root === undefined
        ? []
        : [...above].reverse().flatMap((s) => s.look.policies.map((name) => ({ ...at(s.dir, name), root }))),
  };
}

/**
 * A campaign file (as shown) and the policy files above it, farthest first; `identity` of each is
 * the same for two spellings of one policy file.
 */
export interface FoundPolicies {
  readonly file: string;
  readonly chain: readonly (Place & { readonly identity: string })[];
  /** Misspelt policy files on the way up (see policyChain); none when omitted. */
  readonly nearMisses?: readonly Place[];
  /** Policy files above the outermost repository root (see policyChain); none when omitted. */
  readonly outside?: readonly (Place & { readonly root: Place })[];
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
  /** `--require-policy`: a run that finds no policy file (and is given no --policy) fails. */
  readonly requirePolicy?: boolean;
}

/** The flag that makes a run without a policy fail. */
export const REQUIRE_POLICY_FLAG = "--require-policy";

/**
 * The policy for a run whose campaign files are `files` (each file's path as shown, relative to
 * `cwd` or absolute): every policy file above them combined as floors, `--policy` on top, and the
 * `--loosen-policy` rules turned off. A misspelt policy file on the way (`Campaignctl.policy.yaml`,
 * `campaignctl.polcy.yaml`) stops the run with `policy.file-misnamed`; two policy files in one
 * directory (`.yaml` and `.yml`) with `policy.ambiguous`; with `--require-policy`, finding none
 * with `policy.required`. Call it after reading the files.
 */
export function loadPolicy(flags: PolicyFlags, files: readonly string[], cwd: string): LoadedPolicy {
  const found = discover(files, cwd);
  const misnamed = misnamedFiles(found);
  if (misnamed.length > 0) return { ok: false, diagnostics: misnamed };
  const outside = outsideFiles(
    found,
    flags.policy === undefined ? undefined : identity(resolve(cwd, flags.policy)),
  );
  if (outside.length > 0) return { ok: false, diagnostics: outside };
  const twins = twinFiles(found);
  if (twins.length > 0) return { ok: false, diagnostics: twins };
  const choice = choosePolicies(found, flags.policy !== undefined);
  if (choice.kind === "ambiguous") return { ok: false, diagnostics: [choice.diagnostic] };
  const shown = [...choice.layers.map((p) => p.shown), ...(flags.policy === undefined ? [] : [flags.policy])];
  if (flags.requirePolicy === true && shown.length === 0)
    return { ok: false, diagnostics: [requiredDiagnostic(files.length)] };
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

function requiredDiagnostic(fileCount: number): Diagnostic {
  return {
    severity: "error",
    code: "policy.required",
    message: `${REQUIRE_POLICY_FLAG}: no policy file applies to ${fileCount === 1 ? "the campaign file" : `the ${fileCount} campaign files`} (no ${POLICY_FILE_NAMES.join(" or ")} in their directories or any above them, up to the outermost repository root), and no --policy FILE was given`,
    hint: `add ${POLICY_FILE_NAME} at the repository root (see docs/policy.md), or name one with --policy FILE`,
  };
}

/** Each misspelt policy file on the way up from any campaign file, once, as an error at the file. */
function misnamedFiles(found: readonly FoundPolicies[]): Diagnostic[] {
  const seen = new Map<string, Place>();
  for (const f of found)
    for (const p of f.nearMisses ?? []) if (!seen.has(p.absolute)) seen.set(p.absolute, p);
  return [...seen.values()].map((p) => {
    const name = basename(p.absolute);
    const meant = policyNearMiss(name) ?? POLICY_FILE_NAME;
    return {
      severity: "error",
      code: "policy.file-misnamed",
      message: `${p.shown} looks like a policy file but is not named ${POLICY_FILE_NAMES.join(" or ")}, so it is not read: did you mean ${meant}?`,
      range: fileStart(p.shown),
      hint: `rename it to ${meant} (names are case-sensitive), or move it out of the campaign tree if it is not a policy (see docs/policy.md)`,
    };
  });
}

/**
 * Each policy file above the outermost repository root, once, as an error: the walk ends at that
 * root, so the file is not read, and a file that is there but not read must never pass in silence
 * (a stray `.git` below the real root, or a tree copied without its root's `.git`, would otherwise
 * cut the root's policy off). The file named with `--policy` is read, so it is not one.
 */
function outsideFiles(found: readonly FoundPolicies[], flagged: string | undefined): Diagnostic[] {
  const seen = new Map<string, Place & { readonly root: Place }>();
  for (const f of found)
    for (const p of f.outside ?? [])
      if (!seen.has(p.absolute) && identity(p.absolute) !== flagged) seen.set(p.absolute, p);
  return [...seen.values()].map((p) => ({
    severity: "error",
    code: "policy.outside-repository",
    message: `${p.shown} is a policy file above the outermost repository root ${p.root.shown} (it holds .git), where the search for policy files stops: it is not read`,
    range: fileStart(p.shown),
    hint: `if it is the organization's policy, a stray .git in ${p.root.shown} (a submodule's, a copy of the tree without its root's .git) has cut it off: remove that .git or pass the policy with --policy FILE; if it is not meant for these files, move it (see docs/policy.md)`,
  }));
}

/** Two policy files in one directory (`.yaml` and `.yml`): which one is meant is not ours to guess. */
function twinFiles(found: readonly FoundPolicies[]): Diagnostic[] {
  const byDir = new Map<string, Place[]>();
  for (const f of found)
    for (const p of f.chain) {
      const list = byDir.get(dirname(p.absolute)) ?? [];
      if (!list.some((q) => q.absolute === p.absolute)) list.push(p);
      byDir.set(dirname(p.absolute), list);
    }
  return [...byDir.values()]
    .filter((list) => list.length > 1)
    .map((list) => ({
      severity: "error" as const,
      code: "policy.ambiguous" as const,
      message: `two policy files in one directory: ${list.map((p) => p.shown).join(" and ")}`,
      hint: "keep one of them (merge their rules into it)",
    }));
}

/**
 * The policy files above each campaign file, walked up from the file's directory as it was spelled
 * (`campaigns/gotv/a.yaml` → `campaigns/gotv/campaignctl.policy.yaml`, `campaigns/...`, `/abs/x.yaml`
 * → `/abs/...`). One walk per directory, and one look per directory: thousands of files cost a few
 * dozen directory listings.
 */
function discover(files: readonly string[], cwd: string): FoundPolicies[] {
  const looked = new Map<string, DirectoryLook>();
  const cachedLook = (absolute: string): DirectoryLook => {
    let seen = looked.get(absolute);
    if (seen === undefined) {
      seen = lookInto(absolute);
      looked.set(absolute, seen);
    }
    return seen;
  };
  const byDirectory = new Map<string, Omit<FoundPolicies, "file">>();
  return files.map((file) => {
    const dir = dirname(file);
    let walked = byDirectory.get(dir);
    if (walked === undefined) {
      const walk = policyChain({ absolute: resolve(cwd, dir), shown: dir }, cachedLook);
      walked = {
        chain: walk.chain.map((p) => ({ ...p, identity: identity(p.absolute) })),
        nearMisses: walk.nearMisses,
        outside: walk.outside,
      };
      byDirectory.set(dir, walked);
    }
    return { file, ...walked };
  });
}

/**
 * One directory, listed; a directory that can be entered but not listed (mode 711, common above a
 * home directory) is looked into by name instead, so it never ends the walk.
 */
function lookInto(absoluteDir: string): DirectoryLook {
  try {
    const entries = readdirSync(absoluteDir, { withFileTypes: true });
    return {
      policies: POLICY_FILE_NAMES.filter((n) => entries.some((e) => e.name === n)),
      // A directory is not a misspelt file (a temp dir may well be called campaignctl-policy-…).
      nearMisses: entries
        .filter((e) => !e.isDirectory() && policyNearMiss(e.name) !== undefined)
        .map((e) => e.name)
        .sort(),
      repository: entries.some((e) => e.name === ".git"),
    };
  } catch {
    return {
      policies: POLICY_FILE_NAMES.filter((n) => exists(join(absoluteDir, n))),
      nearMisses: [],
      repository: exists(join(absoluteDir, ".git")),
    };
  }
}

function exists(absolute: string): boolean {
  try {
    lstatSync(absolute);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    // Anything but "not there" is there: an unreadable policy file fails when it is read.
    return !(code === "ENOENT" || code === "ENOTDIR");
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
