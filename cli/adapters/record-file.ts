/**
 * The listener's record on disk (src/webhooks/record-store.ts over cli/adapters/durable-file.ts):
 * creates the `--state` directory, takes its lock (`listener.pid`, the process id of the listener
 * that holds the record: two listeners appending to one record would each miss the other's events
 * when deduplicating), then opens the record; closing it releases the lock.
 */
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
import { takeLock } from "./lock-file.js";

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
