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
  openRepliesStore,
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

/** Opens (creating) the files in `dir`, which must exist. Throws on IO errors (the caller reports them). */
export async function openRepliesState(dir: string): Promise<RepliesState> {
  return openRepliesStore(fileLogDirectory(dir));
}
