/**
 * The IO of policy discovery: looking into each directory on the way up from the campaign files and
 * walking the chain of policy files above them (the walk itself is src/policy/policy-chain.ts).
 */
import { type Dir, lstatSync, opendirSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { POLICY_FILE_NAMES, policyNearMiss } from "../../src/campaign/policy-file-name.js";
import type { FoundPolicies } from "../../src/policy/choose-policies.js";
import { type DirectoryLook, policyChain } from "../../src/policy/policy-chain.js";
import { errnoCode } from "../adapters/files.js";

/**
 * The policy files above each campaign file, walked up from the file's directory as it was spelled
 * (`campaigns/gotv/a.yaml` → `campaigns/gotv/campaignctl.policy.yaml`, `campaigns/...`, `/abs/x.yaml`
 * → `/abs/...`). One walk per directory, and one look per directory: thousands of files cost a few
 * dozen directory listings. `looks` keeps the listings across walks (default: the process's own,
 * {@link PROCESS_LOOKS}).
 */
export function discover(
  files: readonly string[],
  cwd: string,
  looks: LookCache = PROCESS_LOOKS,
): FoundPolicies[] {
  const looked = new Map<string, DirectoryLook>();
  const cachedLook = (absolute: string): DirectoryLook => {
    let seen = looked.get(absolute);
    if (seen === undefined) {
      seen = keptLook(absolute, looks);
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
 * Directory listings kept across runs of discovery by a long-running process (the language
 * server, the test suite's in-process runs), each with its directory's status (inode, modification and change times): adding,
 * removing or renaming an entry changes the directory's times, so a listing is used again only while
 * they are unchanged. A directory changed in the last {@link RACY_MS} is listed again every time
 * (file times are coarse: a change in the same tick as the listing would not show).
 */
export type LookCache = Map<string, { readonly stamp: string; readonly look: DirectoryLook }>;

/**
 * The listings of every run in this process that is given none of its own: the runs of a test
 * file's in-process CLI (a few thousand commands a worker, each walking up to `/` through the same
 * directories). A command run as its own process looks into each directory once either way (a
 * `stat` more each). At most {@link MAX_KEPT_LOOKS} directories.
 */
export const PROCESS_LOOKS: LookCache = new Map();

/** The most directories a {@link LookCache} keeps (the oldest kept is dropped first). */
export const MAX_KEPT_LOOKS = 256;

const RACY_MS = 2000;

function keptLook(absolute: string, looks: LookCache): DirectoryLook {
  let stamp: string | undefined;
  let racy = true;
  try {
    const s = statSync(absolute, { bigint: true });
    stamp = `${s.ino}:${s.mtimeNs}:${s.ctimeNs}`;
    // Only the modification time: adding, removing or renaming an entry sets it to now. File times
    // come from the system clock, so they are compared with the system clock as the process read it
    // at its start plus the monotonic time since, never with the calendar the tool runs on (`Date`,
    // which `--now` and the test suite's clock shift move).
    racy = systemNowMs() - Number(s.mtimeNs / 1_000_000n) < RACY_MS;
  } catch {
    stamp = undefined;
  }
  const kept = looks.get(absolute);
  if (stamp !== undefined && kept !== undefined && kept.stamp === stamp) return kept.look;
  const look = lookInto(absolute);
  looks.delete(absolute);
  if (stamp !== undefined && !racy) {
    if (looks.size >= MAX_KEPT_LOOKS) looks.delete(looks.keys().next().value as string);
    looks.set(absolute, { stamp, look });
  }
  return look;
}

/** The system clock in milliseconds, as file times are stamped with it. */
function systemNowMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * One directory, read an entry at a time (a directory of millions of entries, a shared /tmp, is
 * never held in memory: only the policy files, near misses and `.git` found are kept); a directory
 * that can be entered but not listed (mode 711, common above a home directory) is looked into by
 * name instead, so it never ends the walk.
 */
function lookInto(absoluteDir: string): DirectoryLook {
  let dir: Dir;
  try {
    dir = opendirSync(absoluteDir, { bufferSize: 256 });
  } catch {
    return lookByName(absoluteDir);
  }
  const found = new Set<string>();
  const nearMisses: string[] = [];
  let repository = false;
  try {
    for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
      if (entry.name === ".git") repository = true;
      else if (POLICY_NAMES.has(entry.name)) found.add(entry.name);
      // A directory is not a misspelt file (a temp dir may well be called campaignctl-policy-…).
      if (!entry.isDirectory() && policyNearMiss(entry.name) !== undefined) nearMisses.push(entry.name);
    }
  } catch {
    return lookByName(absoluteDir);
  } finally {
    dir.closeSync();
  }
  return {
    policies: POLICY_FILE_NAMES.filter((n) => found.has(n)),
    nearMisses: nearMisses.sort(),
    repository,
  };
}

const POLICY_NAMES: ReadonlySet<string> = new Set(POLICY_FILE_NAMES);

/** A directory that cannot be listed, looked into by the names that matter. */
function lookByName(absoluteDir: string): DirectoryLook {
  return {
    policies: POLICY_FILE_NAMES.filter((n) => exists(join(absoluteDir, n))),
    nearMisses: [],
    repository: exists(join(absoluteDir, ".git")),
  };
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
export function identity(absolute: string): string {
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}
