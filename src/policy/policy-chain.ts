/**
 * The walk up from a directory to the policy files above it, a pure decision over a look into each
 * directory (the looking is cli/policy-discovery/discover.ts).
 */
import { dirname, join } from "node:path";

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
