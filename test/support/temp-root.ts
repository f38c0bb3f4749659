/**
 * Vitest global setup: the pass's temporary files live under one directory of their own, removed
 * when the pass ends. Before it, each pass left a few thousand directories in the system's temp
 * directory (one per test world), which every later pass had to list again: the CLI's policy
 * discovery lists each directory above the campaign files, `/tmp` included, once per command.
 *
 * The root is made in `CAMPAIGNCTL_TEST_TMPDIR` when that is set, else in `TMPDIR` when that is
 * set, else in `/dev/shm` when it is a memory file system that can be written with at least
 * {@link SHM_MIN_FREE} bytes free, else in `/var/tmp` when it can be written, else in the system's
 * temp directory. Memory first: a pass makes, syncs and removes a few hundred thousand files
 * (worlds copied per test, journals and result files with fdatasync, each file's directory removed
 * after it), and on a disk file system (ext4) that is kernel CPU time of the pass's own processes
 * (bench/README.md, "Issue 35 suite CPU: fixed costs spread over every file"). Not `/tmp` first: on
 * a shared machine it collects thousands of other programs' entries, and every command
 * lists each directory above its campaign files (policy discovery), so a crowded `/tmp` costs every
 * one of the suite's few thousand CLI runs a listing of it (18 ms of CPU each at 25,000 entries).
 * `TMPDIR` then points at the root, so the workers (forked after this runs) and every child
 * process that inherits their environment make their temp files there; test/support/temp-per-file.ts
 * gives each test file a directory of its own inside it. `CAMPAIGNCTL_TEST_KEEP_TMP=1` keeps the
 * root after the pass (its path is printed) to look at what a test wrote.
 */
import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The free space `/dev/shm` needs to hold a pass's files (its peak is far below: files are removed as each test file ends). */
export const SHM_MIN_FREE = 2 * 1024 ** 3;

/** tmpfs's magic number in `statfs(2)`'s `f_type`. */
const TMPFS_MAGIC = 0x01021994;

/** `dir` when it is a writable memory file system (tmpfs) with at least `minFree` bytes free, else undefined. */
export function memoryDir(dir: string, minFree = SHM_MIN_FREE): string | undefined {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    const fs = statfsSync(dir);
    return fs.type === TMPFS_MAGIC && fs.bavail * fs.bsize >= minFree ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Where the root is made (see above). */
function base(): string {
  const chosen = process.env.CAMPAIGNCTL_TEST_TMPDIR ?? process.env.TMPDIR;
  if (chosen !== undefined && chosen !== "") return chosen;
  const memory = memoryDir("/dev/shm");
  if (memory !== undefined) return memory;
  try {
    accessSync("/var/tmp", constants.W_OK | constants.X_OK);
    return "/var/tmp";
  } catch {
    return tmpdir();
  }
}

export default function setup(): () => void {
  const root = mkdtempSync(join(base(), "campaignctl-test-"));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  process.env.CAMPAIGNCTL_TEST_TMP_ROOT = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    if (process.env.CAMPAIGNCTL_TEST_KEEP_TMP === "1") console.warn(`temporary files kept in ${root}`);
    else rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
