/**
 * One build of a tree at a time (scripts/build.mjs): two `npm run build`, or two `npm test` whose
 * global setup builds a stale dist/ (test/support/fresh-dist.ts), would otherwise write dist/ at once
 * (after-build.mjs removes the chunks the other has just written). The lock is a file created with
 * O_EXCL holding its owner's pid, under node_modules/.cache (not dist/, which a build may remove).
 * A second build waits for the first, then decides for itself whether dist/ is current: usually it
 * is, and it does nothing. A lock whose owner no longer runs (a build killed) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";

/** Where the lock is kept, relative to the tree's root. */
export const BUILD_LOCK = "node_modules/.cache/campaignctl-build.lock";

/** How long a waiting build sleeps between two looks at the lock (ms). */
const POLL_MS = 100;

/** Whether a process with this pid runs (a pid we may not signal runs too). */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** The pid written in the lock; undefined while its owner has not written it yet, or when it is gone. */
function owner(path) {
  try {
    const pid = Number(readFileSync(path, "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Creates the lock, or returns false when another process holds it. */
function tryLock(path) {
  try {
    const fd = openSync(path, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if (error.code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Runs `body()` holding the tree's build lock and returns its result; waits (saying so once on
 * stderr) while another live process holds it. The lock is removed when `body` returns or throws.
 */
export function withBuildLock(root, body) {
  const path = join(root, BUILD_LOCK);
  mkdirSync(dirname(path), { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let said = false;
  let unwritten = 0;
  while (!tryLock(path)) {
    const pid = owner(path);
    // A lock left by a killed build; or one whose owner died before writing its pid (it writes it
    // right after creating the file, so an empty lock for several looks in a row is left over).
    if ((pid !== undefined && !running(pid)) || (pid === undefined && ++unwritten > 20)) {
      rmSync(path, { force: true });
      unwritten = 0;
      continue;
    }
    if (!said && pid !== undefined) {
      console.error(`build: another build of this tree (pid ${pid}) is running: waiting for it to end`);
      said = true;
    }
    Atomics.wait(pause, 0, 0, POLL_MS);
  }
  try {
    return body();
  } finally {
    rmSync(path, { force: true });
  }
}
