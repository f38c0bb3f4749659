/**
 * The durable state of `replies run` under `--state DIR` (beside the listener's record in
 * `DIR/webhooks/`, whose lock also guards these files: one worker per directory):
 *
 * - `answered.jsonl`: one line per settled inbound, appended and flushed (fsync) before the worker
 *   goes on: `answered` (its answer's message id, rule, segments) or `refused` (a 4xx, or not sent to an opted-out conversation; never retried).
 *   A line cut short by a kill is cut off on start: that inbound is settled again by reading its
 *   thread (the answer, if it went out, follows the inbound there) and by its Idempotency-Key.
 * - `cursor.json`: the poll's `updated_since` (the newest `last_inbound_at` whose conversation was
 *   settled, with every older one; a pass reads back from it less an overlap, poll-window.ts), when
 *   the last `GET /conversations` pass started (so that no minute holds two passes, across
 *   restarts), and the conversations settled since the floor. Written to a temporary file, flushed
 *   and renamed over the old one.
 *
 * Both are durable logs (src/webhooks/durable-log.ts): an inbound is settled once its line was
 * appended and synced. No IO of its own: the directory is handed in (cli/adapters/replies-state.ts
 * on disk; tests hand in one in memory that records the order of operations).
 */
import { type DurableLog, type LogDirectory, wholeLines } from "../webhooks/durable-log.js";

export const ANSWERED_FILE_NAME = "answered.jsonl";
export const CURSOR_FILE_NAME = "cursor.json";

/**
 * One settled inbound (`answered`, `refused`: at most one such line per inbound message id), or a
 * 402 it met (`unpaid`: nothing sent nor charged; not settled, counted for its next key).
 */
export interface AnsweredLine {
  readonly t: "answered" | "refused" | "unpaid";
  readonly inbound_message_id: string;
  readonly conversation_id: string;
  readonly project_id: string;
  readonly rule: string;
  readonly answer_message_id: string | null;
  readonly segments: number;
  /**
   * The price of one SMS segment the worker was given (`replies run --segment-price`, the same
   * price `replies plan --segment-price` uses), null without one; absent in lines of older versions.
   */
  readonly segment_price_usd?: number | null;
  /** `segments` times `segment_price_usd` (dollars, rounded to 1e-6); null without a price. */
  readonly cost_usd?: number | null;
  /** The API's code of a refusal (`conversation-opted-out`: not sent, the conversation was opted out); null for an answer. */
  readonly code: string | null;
  /** When it was settled (the API's clock, ISO 8601). */
  readonly at: string;
  /** How it was learned: the 202, or the thread read after an unknown outcome or a restart. */
  readonly via: "accepted" | "thread";
}

/**
 * The poll's position (poll-window.ts). Invariant: every conversation in `settled` was settled up
 * to its mark (`last_inbound_at#inbound count`), which is no older than the last pass's floor.
 */
export interface PollCursor {
  readonly updatedSince: string | null;
  /** When the last pass started (ISO 8601, the API's clock); null before the first. */
  readonly lastPassAt: string | null;
  /** Conversations settled up to the `last_inbound_at` given (skipped while it has not moved). */
  readonly settled: Readonly<Record<string, string>>;
}

export interface RepliesState {
  /** Settled inbounds by inbound message id. */
  readonly answered: ReadonlyMap<string, AnsweredLine>;
  /** 402s met per inbound message id (see `replyKey`). */
  readonly unpaid: ReadonlyMap<string, number>;
  /** The `answered` lines of one conversation (for the limits; see decide.ts). */
  answersIn(conversationId: string): readonly AnsweredLine[];
  readonly cursor: PollCursor;
  /** Bytes of a torn last line cut off on open (0: none). */
  readonly torn: number;
  /** Appends and syncs one line; the inbound is settled once this returns. */
  append(line: AnsweredLine): void;
  saveCursor(cursor: PollCursor): void;
  close(): void;
}

const EMPTY_CURSOR: PollCursor = { updatedSince: null, lastPassAt: null, settled: {} };

/** The lines of a record's bytes that are understood; a torn last line and other lines are skipped. */
export function answeredLinesOf(bytes: Buffer): AnsweredLine[] {
  const lines: AnsweredLine[] = [];
  for (const text of wholeLines(bytes).text.split("\n")) {
    if (text.trim() === "") continue;
    try {
      const line = JSON.parse(text) as AnsweredLine;
      if (typeof line.inbound_message_id === "string" && typeof line.project_id === "string")
        lines.push(line);
    } catch {
      // not understood: skipped
    }
  }
  return lines;
}

/**
 * Opens (creating) the record in `logs`: cuts a torn last line, rebuilds what was settled and reads
 * the cursor. Throws on IO errors (the caller reports them).
 */
export function openRepliesStore(logs: LogDirectory): RepliesState {
  const answered = new Map<string, AnsweredLine>();
  const unpaid = new Map<string, number>();
  const byConversation = new Map<string, AnsweredLine[]>();
  const take = (line: AnsweredLine): void => {
    if (line.t === "unpaid")
      unpaid.set(line.inbound_message_id, (unpaid.get(line.inbound_message_id) ?? 0) + 1);
    else answered.set(line.inbound_message_id, line);
    if (line.t === "answered" && typeof line.conversation_id === "string")
      byConversation.set(line.conversation_id, [...(byConversation.get(line.conversation_id) ?? []), line]);
  };
  const { text: whole, wholeBytes, torn } = wholeLines(logs.read(ANSWERED_FILE_NAME));
  const log = logs.open(ANSWERED_FILE_NAME);
  if (torn > 0) {
    log.truncate(wholeBytes);
    log.sync();
  }
  for (const text of whole.split("\n")) {
    if (text.trim() === "") continue;
    try {
      const line = JSON.parse(text) as AnsweredLine;
      if (typeof line.inbound_message_id === "string") take(line);
    } catch {
      // not understood: skipped (only a torn last line can be cut, and that was cut above)
    }
  }
  let cursorLog: DurableLog | null = null;
  let closed = false;
  return {
    answered,
    unpaid,
    answersIn: (conversationId) => byConversation.get(conversationId) ?? [],
    cursor: cursorOf(logs.read(CURSOR_FILE_NAME)),
    torn,
    append(line) {
      log.append(`${JSON.stringify(line)}\n`);
      log.sync();
      take(line);
    },
    saveCursor(next) {
      cursorLog ??= logs.open(CURSOR_FILE_NAME);
      cursorLog.replace(`${JSON.stringify(next)}\n`);
    },
    close() {
      if (closed) return;
      closed = true;
      log.close();
      cursorLog?.close();
    },
  };
}

/** The saved cursor; none (an empty, missing or unreadable file) is the start. */
export function cursorOf(bytes: Buffer): PollCursor {
  let saved: Partial<PollCursor>;
  try {
    saved = JSON.parse(bytes.toString("utf8")) as Partial<PollCursor>;
  } catch (error) {
    if (error instanceof SyntaxError) return EMPTY_CURSOR;
    throw error;
  }
  if (saved === null || typeof saved !== "object") return EMPTY_CURSOR;
  return {
    updatedSince: typeof saved.updatedSince === "string" ? saved.updatedSince : null,
    lastPassAt: typeof saved.lastPassAt === "string" ? saved.lastPassAt : null,
    settled: typeof saved.settled === "object" && saved.settled !== null ? saved.settled : {},
  };
}
