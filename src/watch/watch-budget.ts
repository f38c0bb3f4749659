/**
 * The request budget of `watch`'s reads over the contract's 60-second sliding window. Pure.
 *
 * watch may use {@link POLL_READS_PER_MINUTE} (40) of the key's 100 requests in any 60 seconds
 * (docs/watch.md): the polls' reads and the pending pauses' tries (recorded by the loop); the rest
 * is left to other tools on the key. Every read
 * of a poll is recorded in a ledger (at the time the poll's reads ended, so a record never expires
 * before its requests did); the ledger says how much room any moment has.
 *
 * A poll's statistics pages come first (they judge every project a row lists, the sending ones
 * among them); reads by id take only what is left after the room the next minute's polls need for
 * their own pages ({@link byIdRoom}), and whatever does not fit is carried to later polls. So no
 * 60-second window holds more than the budget, the first poll included, and a sending project is
 * judged on every poll however many quiet projects the files hold.
 */
import { POLL_READS_PER_MINUTE } from "./watch-pace.js";

/** The contract's window, plus a second for the distance between our clock and the API's. */
export const BUDGET_WINDOW_MS = 61_000;

/** Reads recorded at a moment. Invariant: entries are oldest first. */
export type ReadLedger = readonly { readonly atMs: number; readonly reads: number }[];

/** The reads of the ledger still inside the window at `nowMs`. */
export function readsInWindow(ledger: ReadLedger, nowMs: number): number {
  let n = 0;
  for (const e of ledger) if (e.atMs > nowMs - BUDGET_WINDOW_MS) n += e.reads;
  return n;
}

/** The ledger with `reads` recorded at `atMs`, entries out of the window dropped. */
export function recordReads(ledger: ReadLedger, atMs: number, reads: number): ReadLedger {
  const kept = ledger.filter((e) => e.atMs > atMs - BUDGET_WINDOW_MS);
  return reads > 0 ? [...kept, { atMs, reads }] : kept;
}

/** Room left at `nowMs` under `limit`. */
export function roomAt(ledger: ReadLedger, nowMs: number, limit = POLL_READS_PER_MINUTE): number {
  return Math.max(0, limit - readsInWindow(ledger, nowMs));
}

/**
 * The wait from `nowMs` until the ledger has room for `reads` more (0 when it has now): the moment
 * enough of the oldest entries leave the window.
 */
export function waitForRoomMs(
  ledger: ReadLedger,
  nowMs: number,
  reads: number,
  limit = POLL_READS_PER_MINUTE,
): number {
  let inWindow = readsInWindow(ledger, nowMs);
  if (inWindow + reads <= limit) return 0;
  for (const e of ledger) {
    if (e.atMs <= nowMs - BUDGET_WINDOW_MS) continue;
    inWindow -= e.reads;
    if (inWindow + reads <= limit) return e.atMs + BUDGET_WINDOW_MS - nowMs + 1;
  }
  return BUDGET_WINDOW_MS;
}

/**
 * Reads by id a poll may make now: the room at `nowMs` (the poll's own pages already recorded),
 * less the pages the polls of the next window will read (`pagesPerPoll` every `waitMs`).
 */
export function byIdRoom(
  ledger: ReadLedger,
  nowMs: number,
  pagesPerPoll: number,
  waitMs: number,
  limit = POLL_READS_PER_MINUTE,
): number {
  const polls = Math.ceil(BUDGET_WINDOW_MS / Math.max(1, waitMs)) + 1;
  return Math.max(0, roomAt(ledger, nowMs, limit) - pagesPerPoll * polls);
}
