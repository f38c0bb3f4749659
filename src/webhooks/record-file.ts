/**
 * The record on disk (see record.ts): `<state>/dedupe.jsonl`, and the dead-letter file
 * `<state>/dead-letter.jsonl`. Events are appended a batch at a time and flushed (fdatasync, on the
 * event loop's thread: see appendAndFlush) before
 * the listener answers 2xx for any of them (group commit: one flush covers every delivery that
 * arrived while the previous flush ran). Markers (printed, forward attempts) are appended with a
 * synchronous write right after what they mark, so a SIGKILL between the two can only repeat, never
 * lose. On open, a torn last line (a write cut short by a crash) is cut off and reported, and the
 * state is rebuilt. Bounded: past twice the dedupe capacity in lines, the file is rewritten (a new
 * file flushed and renamed over the old one, so a crash leaves one or the other).
 */
import {
  closeSync,
  fdatasyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DEDUPE_CAPACITY, DedupeRecord } from "./dedupe.js";
import {
  compactedLines,
  type DeadReason,
  eventLine,
  foldRecord,
  type Marker,
  markerLine,
  type OutboxItem,
  type RecordedEvent,
} from "./record.js";

/** The record file's name inside `--state DIR`. */
export const DEDUPE_FILE_NAME = "dedupe.jsonl";
/** The dead-letter file's name inside `--state DIR`. */
export const DEAD_LETTER_FILE_NAME = "dead-letter.jsonl";
/** The lock file's name inside `--state DIR`: the process id of the listener that holds the record. */
export const LOCK_FILE_NAME = "listener.pid";

/** What opening the record found. Invariant: `torn > 0` means the file was cut back to its last whole line. */
export interface Recovery {
  readonly torn: number;
  readonly skipped: number;
  readonly unprinted: readonly RecordedEvent[];
  readonly deadLetters: number;
}

/**
 * An open record. Invariants: an event is in `record` (the dedupe index) once `commit` was called
 * for it and stays there unless the commit failed; `outbox` holds the events to forward.
 */
export interface RecordFile {
  readonly record: DedupeRecord;
  readonly outbox: Map<string, OutboxItem>;
  readonly recovery: Recovery;
  /** Appends the events and flushes them to disk; rejects when either fails (nothing was acknowledged). */
  commit(events: readonly RecordedEvent[]): Promise<void>;
  /** Appends markers with one synchronous write (no flush). */
  mark(markers: readonly Marker[]): void;
  /** Appends a dead-letter line and flushes it (synchronous), then marks the event dead in the record. */
  deadLetter(item: OutboxItem, reason: DeadReason, at: number, line: Record<string, unknown>): void;
  /** Rewrites the record when it has grown past twice its capacity (call when every event was printed). */
  compactIfDue(): Promise<void>;
  close(): Promise<void>;
}

export async function openRecordFile(
  dir: string,
  shownDir: string,
  capacity: number = DEDUPE_CAPACITY,
): Promise<{ ok: true; file: RecordFile } | { ok: false; diagnostic: Diagnostic }> {
  const path = join(dir, DEDUPE_FILE_NAME);
  const deadPath = join(dir, DEAD_LETTER_FILE_NAME);
  const shown = join(shownDir, DEDUPE_FILE_NAME);
  const unusable = (what: string, error: unknown): Diagnostic => ({
    severity: "error",
    code: "webhooks.state-unusable",
    message: `Cannot ${what} the record ${shown}: ${error instanceof Error ? error.message : String(error)}`,
    hint: "Give a writable directory with --state",
  });
  let bytes: Buffer;
  let deadLetters = 0;
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    return { ok: false, diagnostic: unusable("read", error) };
  }
  let lock: ReturnType<typeof takeLock>;
  try {
    lock = takeLock(join(dir, LOCK_FILE_NAME));
  } catch (error) {
    return { ok: false, diagnostic: unusable("lock", error) };
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
  try {
    bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return Buffer.alloc(0);
      throw error;
    });
    const dead = await readFile(deadPath, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    });
    deadLetters = dead.split("\n").filter((l) => l.trim() !== "").length;
  } catch (error) {
    lock.release();
    return { ok: false, diagnostic: unusable("read", error) };
  }
  const state = foldRecord(bytes);
  const record = new DedupeRecord(capacity, [
    ...[...state.outbox.values()].map((item) => item.event.entry),
    ...state.events.map((e) => e.entry),
  ]);
  const outbox = state.outbox;
  let lines = state.events.length + state.skipped;
  let fd: number;
  try {
    fd = openSync(path, "a", 0o600);
    if (state.torn > 0) {
      ftruncateSync(fd, state.wholeBytes);
      fdatasyncSync(fd);
    }
  } catch (error) {
    lock.release();
    return { ok: false, diagnostic: unusable("write", error) };
  }
  let deadFd: number | null = null;
  let afterFailure = false;
  const file: RecordFile = {
    record,
    outbox,
    recovery: { torn: state.torn, skipped: state.skipped, unprinted: state.unprinted, deadLetters },
    async commit(events) {
      if (events.length === 0) return;
      // A write that failed may have left part of a line: end it, so the next line stands alone.
      const text = `${afterFailure ? "\n" : ""}${events.map(eventLine).join("")}`;
      try {
        appendAndFlush(fd, text);
        afterFailure = false;
      } catch (error) {
        afterFailure = true;
        throw error;
      }
      lines += events.length;
    },
    mark(markers) {
      if (markers.length === 0) return;
      writeSync(fd, markers.map(markerLine).join(""));
      lines += markers.length;
    },
    deadLetter(item, reason, at, line) {
      deadFd ??= openSync(deadPath, "a", 0o600);
      writeSync(deadFd, `${JSON.stringify(line)}\n`);
      fdatasyncSync(deadFd);
      file.mark([
        {
          t: "dead",
          event_id: item.event.entry.event_id,
          attempt: item.attempts,
          at: new Date(at).toISOString(),
          reason,
        },
      ]);
      outbox.delete(item.event.entry.event_id);
    },
    async compactIfDue() {
      if (lines <= 2 * Math.max(capacity, outbox.size)) return;
      // Synchronous from here on, so no marker is written between the old file and the new one.
      const next = `${path}.${process.pid}.tmp`;
      const tmp = openSync(next, "w", 0o600);
      try {
        writeFileSync(tmp, compactedLines(record.entries(), outbox));
        fdatasyncSync(tmp);
      } finally {
        closeSync(tmp);
      }
      renameSync(next, path);
      closeSync(fd);
      fd = openSync(path, "a", 0o600);
      lines = record.size + outbox.size;
    },
    async close() {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      if (deadFd !== null) closeSync(deadFd);
      lock.release();
    },
  };
  return { ok: true, file };
}

/**
 * Appends `text` to `fd` and flushes the file's data, on this thread: a flush costs the event loop
 * its time (a fraction of a millisecond on a quiet disk), but no hop to and from libuv's thread
 * pool, whose scheduling delays dominate on a busy machine; the deliveries that arrive meanwhile
 * wait in the kernel and form the next batch (group commit).
 */
function appendAndFlush(fd: number, text: string): void {
  writeSync(fd, text);
  fdatasyncSync(fd);
}

/**
 * Takes `path` (created exclusively, holding this process's id). A lock left by a process that no
 * longer runs (a listener killed with SIGKILL) is taken over; one held by a running process is not.
 */
function takeLock(path: string): { ok: true; release(): void } | { ok: false; pid: number } {
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
