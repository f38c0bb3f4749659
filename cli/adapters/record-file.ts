/**
 * The listener's record on disk (src/webhooks/record-store.ts over cli/adapters/durable-file.ts):
 * creates the `--state` directory, takes its lock (`listener.pid`, the process id of the listener
 * that holds the record: two listeners appending to one record would each miss the other's events
 * when deduplicating), then opens the record; closing it releases the lock.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { DEDUPE_CAPACITY } from "../../src/webhooks/dedupe.js";
import {
  DEDUPE_FILE_NAME,
  type OpenedRecord,
  openRecordStore,
  recordUnusable,
} from "../../src/webhooks/record-store.js";
import { fileLogDirectory } from "./durable-file.js";

/** The lock file's name inside `--state DIR`: the process id of the listener that holds the record. */
export const LOCK_FILE_NAME = "listener.pid";

/** Opens the record in `dir` (`shownDir` as the user gave it), holding the directory's lock until it is closed. */
export async function openRecordFile(
  dir: string,
  shownDir: string,
  capacity: number = DEDUPE_CAPACITY,
): Promise<OpenedRecord> {
  const shown = join(shownDir, DEDUPE_FILE_NAME);
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    return { ok: false, diagnostic: recordUnusable(shown, "read", error) };
  }
  let lock: ReturnType<typeof takeLock>;
  try {
    lock = takeLock(join(dir, LOCK_FILE_NAME));
  } catch (error) {
    return { ok: false, diagnostic: recordUnusable(shown, "lock", error) };
  }
  if (!lock.ok)
    return {
      ok: false,
      diagnostic: {
        severity: "error",
        code: "webhooks.state-locked",
        message: `Another listener (process ${lock.pid}) is using the record ${shown}`,
        hint: "Stop it first, or give this one its own --state directory: two listeners appending to one record would each miss the other's events when deduplicating",
      },
    };
  const opened = openRecordStore(fileLogDirectory(dir), shown, capacity);
  if (!opened.ok) {
    lock.release();
    return opened;
  }
  const { release } = lock;
  const close = opened.file.close;
  return {
    ok: true,
    file: {
      ...opened.file,
      async close() {
        await close();
        release();
      },
    },
  };
}

/**
 * Takes the lock file at `path` (its content: this process's id), or names the running process that
 * holds it; a lock left by a process that is gone is taken over. Also the results store's lock
 * (cli/adapters/results-files.ts).
 */
export function takeLock(path: string): { ok: true; release(): void } | { ok: false; pid: number } {
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return {
        ok: true,
        release: () => {
          try {
            if (readFileSync(path, "utf8").trim() === String(process.pid)) unlinkSync(path);
          } catch {
            // gone already
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let pid = Number.NaN;
    try {
      pid = Number(readFileSync(path, "utf8").trim());
    } catch {
      continue; // removed meanwhile: try again
    }
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid)) return { ok: false, pid };
    try {
      unlinkSync(path); // stale: its listener is gone
    } catch {
      // another starter took it over first: try again
    }
  }
  throw new Error(`${path} keeps changing: another listener is starting on the same directory`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
