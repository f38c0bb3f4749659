/**
 * Vitest global setup: the pass's temporary files live under one directory of their own, removed
 * when the pass ends. Before it, each pass left a few thousand directories in the system's temp
 * directory (one per test world), which every later pass had to list again: the CLI's policy
 * discovery lists each directory above the campaign files, `/tmp` included, once per command.
 *
 * The root is made in `CAMPAIGNCTL_TEST_TMPDIR` when that is set, else in the system's temp
 * directory, and `TMPDIR` points at it, so the workers (forked after this runs) and every child
 * process that inherits their environment make their temp files there; test/support/temp-per-file.ts
 * gives each test file a directory of its own inside it. `CAMPAIGNCTL_TEST_KEEP_TMP=1` keeps the
 * root after the pass (its path is printed) to look at what a test wrote.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(process.env.CAMPAIGNCTL_TEST_TMPDIR ?? tmpdir(), "campaignctl-test-"));
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
