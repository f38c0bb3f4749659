/**
 * How long an apply has left, from its rate budget: the requests still to make over the requests a
 * minute the keys in use may make (their `X-RateLimit-Limit`s added up, the contract's window being
 * one minute). The requests still to make are the actions not yet finished times what a finished
 * action has cost so far (its reads and writes, at least one: the write); before any has finished,
 * one each, so the estimate is a floor and says so (`at least`). Pure.
 */
import { formatDuration } from "../../src/text/duration.js";

/** What the estimate reads from the live view's state and the session. */
export interface EstimateInput {
  readonly total: number;
  readonly finished: number;
  /** API requests started since the run started. */
  readonly requests: number;
  /** Requests a minute of the keys in use; 0 when no key has been used yet. */
  readonly perMinute: number;
}

/** The time left, and whether it is only a floor (no action has finished to measure one by). */
export interface Estimate {
  readonly ms: number;
  readonly floor: boolean;
}

const MINUTE_MS = 60_000;

/** Undefined when there is nothing to estimate: no budget known, or nothing left. */
export function estimateTimeLeft(input: EstimateInput): Estimate | undefined {
  const left = input.total - input.finished;
  if (input.perMinute <= 0 || left <= 0) return undefined;
  const perAction = input.finished === 0 ? 1 : Math.max(1, input.requests / input.finished);
  return { ms: Math.ceil(((left * perAction) / input.perMinute) * MINUTE_MS), floor: input.finished === 0 };
}

/** `about 4m 10s left at 100 requests/min` (`at least …` for a floor). */
export function estimateText(estimate: Estimate, perMinute: number): string {
  return `${estimate.floor ? "at least" : "about"} ${formatDuration(estimate.ms)} left at ${perMinute} requests/min`;
}
