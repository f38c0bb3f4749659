/**
 * Where a `GET /conversations` pass reads from, and what it leaves in the cursor (issue 34): a pass
 * reads back {@link PASS_OVERLAP_MS} before the cursor, so that an inbound a carrier delivered late
 * (received before the newest `last_inbound_at` already settled) or one stamped by an API clock that
 * stepped back is still read; the record settles what was read twice (an inbound in it is never
 * judged again), and the cursor's `settled` marks let conversations that did not change be skipped
 * (a mark is the conversation's `last_inbound_at` and its count of inbounds, so a late inbound,
 * which may leave `last_inbound_at` as it was, still changes it). `replies plan --state` reads from
 * the same floor, so that it judges every inbound the next pass would. Pure.
 */
import { instantMs } from "../contract/instant.js";
import { CONVERSATIONS_MAX_DAYS } from "../contract/limits.js";
import type { Conversation } from "../contract/resources.js";
import type { PollCursor } from "./state-file.js";

/** How far before the cursor a pass reads back: late deliveries up to this are answered. */
export const PASS_OVERLAP_MS = 2 * 3_600_000;

const DAY_MS = 86_400_000;
/** The API refuses `updated_since` over 90 days back: a floor stays a minute inside that. */
const OLDEST_READ_MS = CONVERSATIONS_MAX_DAYS * DAY_MS - 60_000;

/**
 * The instant (ms) a pass reads from: `firstWindowMs` back from now before the first pass; then the
 * cursor, or now when the API's clock went back before it, less the overlap; never over the API's
 * 90 days back.
 */
export function passFloor(cursor: PollCursor, nowMs: number, firstWindowMs: number): number {
  const at = cursor.updatedSince === null ? Number.NaN : Date.parse(cursor.updatedSince);
  const floor = Number.isNaN(at) ? nowMs - firstWindowMs : Math.min(at, nowMs) - PASS_OVERLAP_MS;
  return Math.max(floor, nowMs - OLDEST_READ_MS);
}

/** When the next pass may start: `intervalMs` after the last one, or now when the clock went back before it. */
export function nextPassAt(cursor: PollCursor, nowMs: number, intervalMs: number): number {
  if (cursor.lastPassAt === null) return Number.NEGATIVE_INFINITY;
  const last = Date.parse(cursor.lastPassAt);
  if (Number.isNaN(last) || last > nowMs) return nowMs;
  return last + intervalMs;
}

/** A conversation's mark in the cursor's `settled`: its `last_inbound_at` and count of inbounds. */
export function settledMark(c: Conversation): string {
  return `${c.last_inbound_at ?? ""}#${c.inbound_messages}`;
}

/** The `last_inbound_at` (ms) of a mark (a mark of an older version is the time alone). */
export function markedAt(mark: string): number {
  const hash = mark.indexOf("#");
  return Date.parse(hash < 0 ? mark : mark.slice(0, hash));
}

/**
 * A pass's conversations in the order it settles them: oldest `last_inbound_at` first, by the instant
 * it names however it is written (`Z`, `.000Z`, another offset: src/contract/instant.ts), not by its
 * text; one with none (or unreadable) first. A pass stopped midway moves the cursor to the last
 * settled time, so a conversation ordered after an older one it skipped would be lost.
 */
export function passOrder(conversations: readonly Conversation[]): Conversation[] {
  const at = (c: Conversation) => instantMs(c.last_inbound_at ?? "") ?? Number.NEGATIVE_INFINITY;
  return [...conversations].sort((a, b) => {
    const x = at(a);
    const y = at(b);
    return x < y ? -1 : x > y ? 1 : a.conversation_id.localeCompare(b.conversation_id);
  });
}

/**
 * The cursor after a pass: the newest `last_inbound_at` settled before the first conversation left
 * open (`firstOpen`, or one the stop left unread), never before the previous cursor unless that
 * conversation is older: the next pass must list it again (its mark is not in `settled`).
 */
export function cursorAfterPass(
  previous: string | null,
  settledUpTo: string | null,
  firstOpen: string | null,
): string | null {
  const later = (a: string | null, b: string | null) =>
    a === null ? b : b === null ? a : Date.parse(a) >= Date.parse(b) ? a : b;
  const reached = later(previous, settledUpTo);
  if (firstOpen === null || reached === null) return reached ?? firstOpen;
  return Date.parse(reached) <= Date.parse(firstOpen) ? reached : firstOpen;
}
