/**
 * Vitest setup file (run before each test file): the file's temporary directories are made in a
 * directory of its own under the pass's root (test/support/temp-root.ts), removed after the file's
 * last `afterAll`, whatever its tests left behind. `os.tmpdir()` reads `TMPDIR` at each call, so
 * `mkdtempSync(join(tmpdir(), ...))` anywhere in the file, its helpers and the code it runs
 * in-process lands there; child processes started with the worker's environment do too.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll } from "vitest";

const root = process.env.CAMPAIGNCTL_TEST_TMP_ROOT;
if (root !== undefined) {
  const own = mkdtempSync(join(root, "file-"));
  process.env.TMPDIR = own;
  // Registered before the file's own hooks, so it runs after them (vitest runs `afterAll` hooks
  // in reverse order of registration).
  afterAll(() => {
    process.env.TMPDIR = root;
    if (process.env.CAMPAIGNCTL_TEST_KEEP_TMP !== "1")
      rmSync(own, { recursive: true, force: true, maxRetries: 3 });
  });
}
