/**
 * The state of `replies run` on disk (src/replies/state-file.ts over cli/adapters/durable-file.ts):
 * opened by the worker, read back by `status` and `replies plan`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ANSWERED_FILE_NAME,
  type AnsweredLine,
  answeredLinesOf,
  CURSOR_FILE_NAME,
  cursorOf,
  openRepliesStore,
  type PollCursor,
  type RepliesState,
} from "../../src/replies/state-file.js";
import { fileLogDirectory } from "./durable-file.js";

/**
 * Reads `dir`'s record without opening it for writing and without taking the lock (for `status`):
 * null when there is no record; a torn last line and lines not understood are skipped.
 */
export function readAnsweredRecord(dir: string): AnsweredLine[] | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, ANSWERED_FILE_NAME));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  return answeredLinesOf(bytes);
}

/**
 * Reads `dir`'s poll cursor without taking the lock (for `replies plan --state`, which reads from
 * the worker's next floor): the start when there is none.
 */
export function readPollCursor(dir: string): PollCursor {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, CURSOR_FILE_NAME));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return cursorOf(Buffer.alloc(0));
    throw error;
  }
  return cursorOf(bytes);
}

/** Opens (creating) the files in `dir`, which must exist. Throws on IO errors (the caller reports them). */
export async function openRepliesState(dir: string): Promise<RepliesState> {
  return openRepliesStore(fileLogDirectory(dir));
}
