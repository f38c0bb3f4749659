/**
 * `--wait-for-approval`: how often the reconciliation loop polls while it only waits for test
 * approvals. Polls go through the client's one rate limiter; their interval grows with the number
 * of projects polled one by one so that polling takes at most a fifth of the key's budget. Pure.
 */

/** Share of the contract's 100 requests a minute that approval polling may use. */
export const POLL_BUDGET_PER_MINUTE = 20;

/**
 * The interval between polls when `waiting` reads make one poll: at least `minIntervalMs`, and
 * long enough that they stay within {@link POLL_BUDGET_PER_MINUTE}.
 */
export function pollInterval(minIntervalMs: number, waiting: number): number {
  return Math.max(minIntervalMs, Math.ceil((Math.max(1, waiting) * 60_000) / POLL_BUDGET_PER_MINUTE));
}
