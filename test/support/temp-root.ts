/**
 * Vitest global setup: the pass's temporary files live under one directory of their own, removed
 * when the pass ends. Before it, each pass left a few thousand directories in the system's temp
 * directory (one per test world), which every later pass had to list again: the CLI's policy
 * discovery lists each directory above the campaign files, `/tmp` included, once per command.
 *
 * The root is made in `CAMPAIGNCTL_TEST_TMPDIR` when that is set, else in `TMPDIR` when that is
 * set, else in `/var/tmp` when it can be written, else in the system's temp directory. Not `/tmp`
 * first: on a shared machine it collects thousands of other programs' entries, and every command
 * lists each directory above its campaign files (policy discovery), so a crowded `/tmp` costs every
 * one of the suite's few thousand CLI runs a listing of it (18 ms of CPU each at 25,000 entries).
 * `TMPDIR` then points at the root, so the workers (forked after this runs) and every child
 * process that inherits their environment make their temp files there; test/support/temp-per-file.ts
 * gives each test file a directory of its own inside it. `CAMPAIGNCTL_TEST_KEEP_TMP=1` keeps the
 * root after the pass (its path is printed) to look at what a test wrote.
 */
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where the root is made (see above). */
function base(): string {
  const chosen = process.env.CAMPAIGNCTL_TEST_TMPDIR ?? process.env.TMPDIR;
  if (chosen !== undefined && chosen !== "") return chosen;
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
