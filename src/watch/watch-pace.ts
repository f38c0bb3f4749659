/**
 * The pace of `watch`'s polls within the contract's rate limit (100 requests a minute per key, a
 * 60-second sliding window). Pure.
 *
 * A poll costs one stats page per 1,000 rows (and a read by id only for a sending project no window
 * lists), whatever the number of projects. The wait after a poll is the `--interval` (default
 * {@link DEFAULT_INTERVAL_MS}, at least {@link MIN_INTERVAL_MS}), lengthened when the poll's reads
 * would otherwise use more than {@link POLL_READS_PER_MINUTE} a minute: watch never takes more than
 * 40 of the key's 100 requests a minute (reads by id and the retries of pending pauses included:
 * `watch-budget.ts` and the loop hold that over every 60-second window; only a trip's first try is
 * never held back), leaving the rest for other tools on the same key (an `apply`).
 */

/** The wait between two polls without `--interval`. */
export const DEFAULT_INTERVAL_MS = 15_000;

/** The shortest `--interval` accepted. */
export const MIN_INTERVAL_MS = 5_000;

/** Requests a minute the polls may use at most (of the contract's 100 per key). */
export const POLL_READS_PER_MINUTE = 40;

/**
 * The wait after a poll that made `reads` read requests: `intervalMs`, or longer when that pace would
 * exceed {@link POLL_READS_PER_MINUTE} (1,000 rows a page: 1 page every 5 s is 12 a minute; 10 pages
 * wait 15 s; 20 pages 30 s).
 */
export function pollWaitMs(intervalMs: number, reads: number): number {
  return Math.max(intervalMs, Math.ceil((reads * 60_000) / POLL_READS_PER_MINUTE));
}
