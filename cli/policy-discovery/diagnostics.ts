/**
 * The errors about the policy files found on the way up from the campaign files: misspelt ones,
 * ones above the outermost repository root, and two in one directory.
 */
import { basename, dirname } from "node:path";
import { POLICY_FILE_NAME, POLICY_FILE_NAMES, policyNearMiss } from "../../src/campaign/policy-file-name.js";
import { fileStart } from "../../src/campaign/source-range.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { FoundPolicies } from "../../src/policy/choose-policies.js";
import type { Place } from "../../src/policy/policy-chain.js";
import { identity } from "./discover.js";

/** Each misspelt policy file on the way up from any campaign file, once, as an error at the file. */
export function misnamedFiles(found: readonly FoundPolicies[]): Diagnostic[] {
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
export function outsideFiles(found: readonly FoundPolicies[], flagged: string | undefined): Diagnostic[] {
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
export function twinFiles(found: readonly FoundPolicies[]): Diagnostic[] {
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
