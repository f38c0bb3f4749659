/**
 * The listener's record (see record.ts) kept in a directory of durable logs (durable-log.ts):
 * `dedupe.jsonl`, and the dead-letter file `dead-letter.jsonl`. Events are appended a batch at a
 * time and synced (off the event loop) before the listener answers 2xx for any of them (group
 * commit: one sync covers every delivery that arrived while the previous one ran). Markers
 * (printed, forward attempts) are appended right after what they mark, without a sync, so a
 * SIGKILL between the two can only repeat, never lose. On open, a torn last line (a write cut short
 * by a crash) is cut off and reported, and the state is rebuilt. Bounded: past twice the dedupe
 * capacity in lines, the log is replaced by its compaction (atomically: a crash leaves one or the
 * other). No IO of its own: the directory is handed in (cli/adapters/record-file.ts on disk; tests
 * hand in one in memory).
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DEDUPE_CAPACITY, DedupeRecord } from "./dedupe.js";
import { type DurableLog, type LogDirectory, wholeLines } from "./durable-log.js";
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
  /**
   * Appends the events (`lines`: their record lines, {@link eventLine} each; built here when not
   * given) and syncs them; rejects when either fails (nothing was acknowledged). Appends before it
   * returns; the sync runs off the event loop.
   */
  commit(events: readonly RecordedEvent[], lines?: string): Promise<void>;
  /**
   * Appends markers (no sync). Never throws: a marker the disk refuses is lost (the next start
   * repeats what it marked: prints the event again, `recovered`, or forwards it again), and the
   * next line is kept apart from any part of it that was written.
   */
  mark(markers: readonly Marker[]): void;
  /**
   * Appends a dead-letter line and syncs it, then marks the event dead in the record. Throws when
   * the line could not be written whole and synced: the event stays in the outbox, and what part
   * of the line was written is cut before the next dead letter.
   */
  deadLetter(item: OutboxItem, reason: DeadReason, at: number, line: Record<string, unknown>): void;
  /** Whether the record has grown past twice its capacity (in lines), so that {@link compact} is due. */
  compactionDue(): boolean;
  /**
   * Replaces the record by its compaction, atomically. Call only with no sync running and every
   * event written so far printed; `unwritten` are entries of `record` not yet written (their
   * events queued for the disk): left out, since the compaction marks everything in it printed.
   */
  compact(unwritten?: ReadonlySet<string>): void;
  close(): Promise<void>;
}

export type OpenedRecord = { ok: true; file: RecordFile } | { ok: false; diagnostic: Diagnostic };

/**
 * Opens the record in `logs`, naming it `shown` (its path as the user gave the `--state` directory) in a
 * problem: reads it, cuts a torn last line, rebuilds the dedupe index and the outbox.
 */
export function openRecordStore(
  logs: LogDirectory,
  shown: string,
  capacity: number = DEDUPE_CAPACITY,
): OpenedRecord {
  const unusable = (what: string, error: unknown): OpenedRecord => ({
    ok: false,
    diagnostic: recordUnusable(shown, what, error),
  });
  let bytes: Buffer;
  let deadLetters: number;
  let deadWhole: number;
  try {
    bytes = logs.read(DEDUPE_FILE_NAME);
    const dead = wholeLines(logs.read(DEAD_LETTER_FILE_NAME));
    deadWhole = dead.wholeBytes;
    deadLetters = dead.text.split("\n").filter((l) => l.trim() !== "").length;
  } catch (error) {
    return unusable("read", error);
  }
  const state = foldRecord(bytes);
  let log: DurableLog;
  try {
    log = logs.open(DEDUPE_FILE_NAME);
    if (state.torn > 0) {
      log.truncate(state.wholeBytes);
      log.sync();
    }
  } catch (error) {
    return unusable("write", error);
  }
  const record = new DedupeRecord(capacity, [
    ...[...state.outbox.values()].map((item) => item.event.entry),
    ...state.events.map((e) => e.entry),
  ]);
  const recovery = { torn: state.torn, skipped: state.skipped, unprinted: state.unprinted, deadLetters };
  return {
    ok: true,
    file: recordOn(logs, log, record, state.outbox, recovery, {
      lines: state.events.length + state.skipped,
      deadWhole,
      capacity,
    }),
  };
}

/** `webhooks.state-unusable`: the record `shown` cannot be `what` (read, written, locked). */
export function recordUnusable(shown: string, what: string, error: unknown): Diagnostic {
  return {
    severity: "error",
    code: "webhooks.state-unusable",
    message: `Cannot ${what} the record ${shown}: ${error instanceof Error ? error.message : String(error)}`,
    hint: "Give a writable directory with --state",
  };
}

function recordOn(
  logs: LogDirectory,
  log: DurableLog,
  record: DedupeRecord,
  outbox: Map<string, OutboxItem>,
  recovery: Recovery,
  at: { readonly lines: number; readonly deadWhole: number; readonly capacity: number },
): RecordFile {
  const { capacity } = at;
  let lines = at.lines;
  let deadLog: DurableLog | null = null;
  /** The dead-letter file's whole lines, in bytes: what follows (a line a failed write or a crash cut) is cut before the next. */
  let deadWhole = at.deadWhole;
  let deadCut = true;
  let afterFailure = false;
  const file: RecordFile = {
    record,
    outbox,
    recovery,
    async commit(events, eventLines) {
      if (events.length === 0) return;
      // A write that failed may have left part of a line: end it, so the next line stands alone.
      const text = `${afterFailure ? "\n" : ""}${eventLines ?? events.map(eventLine).join("")}`;
      try {
        // The sync runs off the event loop (issue 36: on this thread it was a third of the
        // listener's time, and no delivery was read while it ran): the deliveries read meanwhile
        // form the next batch, appended and synced once this one settled (group commit).
        log.append(text);
        await log.syncAsync();
        afterFailure = false;
      } catch (error) {
        afterFailure = true;
        throw error;
      }
      lines += events.length;
    },
    mark(markers) {
      if (markers.length === 0) return;
      // One marker (a batch's `printed`) is one line as it is: no array mapped and joined (issue 36:
      // an array mapped in compiled code is not of the kind the join was compiled for).
      const text = markers.length === 1 ? markerLine(markers[0] as Marker) : markers.map(markerLine).join("");
      try {
        log.append(`${afterFailure ? "\n" : ""}${text}`);
        afterFailure = false;
      } catch {
        // Lost, never an event: the next start repeats what it marked (a print, recovered; an
        // attempt). The next line starts a line of its own, after whatever part of it was written.
        afterFailure = true;
        return;
      }
      lines += markers.length;
    },
    deadLetter(item, reason, at, line) {
      deadLog ??= logs.open(DEAD_LETTER_FILE_NAME);
      if (deadCut) {
        deadLog.truncate(deadWhole);
        deadLog.sync();
        deadCut = false;
      }
      const text = `${JSON.stringify(line)}\n`;
      try {
        deadLog.append(text);
        deadLog.sync();
      } catch (error) {
        deadCut = true;
        throw error;
      }
      deadWhole += Buffer.byteLength(text);
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
    compactionDue: () => lines > 2 * Math.max(capacity, outbox.size),
    compact(unwritten) {
      const entries = record.entries();
      const kept =
        unwritten === undefined || unwritten.size === 0
          ? entries
          : entries.filter((entry) => !unwritten.has(entry.event_id));
      // Synchronous, so no marker is appended between the old content and the new.
      log.replace(compactedLines(kept, outbox));
      lines = kept.length + outbox.size;
    },
    async close() {
      try {
        log.close();
      } catch {
        // already closed
      }
      deadLog?.close();
    },
  };
  return file;
}
