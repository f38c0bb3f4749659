/**
 * The dedupe record on disk (the IO edge of src/webhooks/dedupe.ts): `<state dir>/dedupe.jsonl`,
 * one JSON line per event taken on, appended (a batch of events in one write) before the events are
 * reported or forwarded, and read
 * back on start, so a listener restarted on the same directory does not handle an event twice.
 * Bounded: once the file holds twice the record's capacity in lines, it is rewritten with the
 * newest `capacity` entries (a new file renamed over the old one, so a crash leaves either).
 * A torn last line (a crash mid-write) is skipped on reading.
 */
import { mkdir, open, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import {
  DEDUPE_CAPACITY,
  type DedupeEntry,
  DedupeRecord,
  dedupeLine,
  parseDedupeLines,
} from "../../src/webhooks/dedupe.js";

/** The record file's name inside `--state DIR`. */
export const DEDUPE_FILE_NAME = "dedupe.jsonl";

/** An open record file. Invariant: every entry `append`ed is in `record` and, unless a write failed, on disk. */
export interface DedupeFile {
  readonly record: DedupeRecord;
  /** Lines on disk that were not entries (skipped when loading). */
  readonly skipped: number;
  append(entries: readonly DedupeEntry[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens (creating the directory and file as needed) the record under `dir`, an absolute path.
 * `shownDir` is the directory as the user gave it, for messages. A write that fails later is
 * reported once through `onWriteError` (the record in memory still dedupes).
 */
export async function openDedupeFile(
  dir: string,
  shownDir: string,
  onWriteError: (diagnostic: Diagnostic) => void,
  capacity: number = DEDUPE_CAPACITY,
): Promise<{ ok: true; file: DedupeFile } | { ok: false; diagnostic: Diagnostic }> {
  const path = join(dir, DEDUPE_FILE_NAME);
  const shown = join(shownDir, DEDUPE_FILE_NAME);
  const unusable = (what: string, error: unknown): Diagnostic => ({
    severity: "error",
    code: "webhooks.state-unusable",
    message: `Cannot ${what} the dedupe record ${shown}: ${error instanceof Error ? error.message : String(error)}`,
    hint: "Give a writable directory with --state",
  });
  let text = "";
  try {
    await mkdir(dir, { recursive: true });
    text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    });
  } catch (error) {
    return { ok: false, diagnostic: unusable("read", error) };
  }
  const { entries, skipped } = parseDedupeLines(text);
  const record = new DedupeRecord(capacity, entries);
  let lines = entries.length + skipped;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    if (lines > 2 * capacity) {
      await rewrite(path, record);
      lines = record.size;
    }
    handle = await open(path, "a");
  } catch (error) {
    return { ok: false, diagnostic: unusable("write", error) };
  }
  let failed = false;
  const file: DedupeFile = {
    record,
    skipped,
    async append(entries) {
      if (failed || entries.length === 0) return;
      try {
        await handle.write(entries.map(dedupeLine).join(""));
        lines += entries.length;
        if (lines > 2 * capacity) {
          await handle.close();
          await rewrite(path, record);
          lines = record.size;
          handle = await open(path, "a");
        }
      } catch (error) {
        failed = true;
        onWriteError(unusable("write", error));
      }
    },
    async close() {
      await handle.close().catch(() => {});
    },
  };
  return { ok: true, file };
}

/** Writes the record's entries to a new file and renames it over `path`. */
async function rewrite(path: string, record: DedupeRecord): Promise<void> {
  const next = `${path}.${process.pid}.tmp`;
  await writeFile(next, record.entries().map(dedupeLine).join(""));
  await rename(next, path);
}
