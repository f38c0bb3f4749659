/**
 * The contract's retry guidance (design.md, "Retries"), pure: the random source is injected.
 *
 * One retry layer per kind of request:
 * - Reads (GET) are retried here, by the client, on their own backoff curve ({@link decideRetry}).
 * - Writes (POST) are attempted exactly once per client call: the client never retries a write.
 *   Their one retry layer is the write executor (`write-executor.ts`), with the caller's re-read,
 *   because only the caller can settle an unknown outcome by re-reading before it sends again. That layer counts
 *   every attempt of the write, whatever the answer, against one budget, and waits on one curve
 *   that honours `Retry-After`; {@link writeFailureOf} says what each answer means.
 */
import { isRateLimitStall } from "./rate-limit-stall.js";
import type { ApiError, HttpMethod } from "./result.js";

/** Bounds of the read retry loop. */
export interface RetryOptions {
  /**
   * Attempts of a GET failing with 5xx or in transport. Attempts answered 429 do not count (see
   * {@link serverAttempts}).
   */
  readonly maxAttempts: number;
  /** 429 retries of a GET before the 429 is returned. */
  readonly max429Retries: number;
  /** First backoff delay; doubles per attempt. */
  readonly baseDelayMs: number;
  /** Backoff ceiling. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  max429Retries: 5,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
};

/** Why a retry happens; carried in events and counted in statistics. */
export type RetryReason = "rate-limited" | "in-progress" | "enqueue-failed" | "server-error" | "network";

/**
 * Decision after a failed attempt of a read. `via: "limiter"` means every caller waits (a 429
 * exhausts the key for all, and the client has already told the shared limiter); `via: "sleep"`
 * means only this call waits.
 */
export type RetryDecision =
  | { readonly retry: false }
  | {
      readonly retry: true;
      readonly reason: RetryReason;
      readonly delayMs: number;
      readonly via: "limiter" | "sleep";
    };

/** Attempts so far of one read call. */
export interface RetryCounts {
  /** Attempts made so far (1 after the first). */
  readonly attempts: number;
  readonly rateLimited: number;
}

/**
 * Attempts that count against `maxAttempts`: those that failed in transport or with a 5xx. A 429
 * says nothing about the server's health, so it has its own budget and never uses up the retries
 * meant for server errors.
 */
export function serverAttempts(counts: RetryCounts): number {
  return counts.attempts - counts.rateLimited;
}

/** Exponential backoff with equal jitter: half fixed, half `random()`; `attempt` is 1-based. */
export function backoffMs(attempt: number, options: RetryOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * Math.min(1, Math.max(0, random())));
}

/** The delay a 429 asks for: its `Retry-After`, else one second. */
export function rateLimitDelayMs(error: ApiError): number {
  return error.kind === "http" && error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : 1000;
}

/**
 * Reads are retried on transport failures, 5xx and 429. Writes never are (see the module comment):
 * every write failure is returned, with its outcome, to the caller's one retry layer.
 */
export function decideRetry(
  method: HttpMethod,
  error: ApiError,
  counts: RetryCounts,
  options: RetryOptions,
  random: () => number,
): RetryDecision {
  const stop: RetryDecision = { retry: false };
  switch (method) {
    case "POST":
      return stop;
    case "GET": {
      const served = serverAttempts(counts);
      // A refused rate-limit wait (nothing sent) ends the call: waiting again would not end.
      if (isRateLimitStall(error)) return stop;
      if (error.kind === "network") {
        if (served >= options.maxAttempts) return stop;
        return { retry: true, reason: "network", delayMs: backoffMs(served, options, random), via: "sleep" };
      }
      if (error.status === 429) {
        if (counts.rateLimited >= options.max429Retries) return stop;
        return { retry: true, reason: "rate-limited", delayMs: rateLimitDelayMs(error), via: "limiter" };
      }
      if (error.status < 500 || served >= options.maxAttempts) return stop;
      const afterMs = error.retryAfterSeconds === null ? 0 : error.retryAfterSeconds * 1000;
      const delayMs = Math.max(backoffMs(served, options, random), afterMs);
      return { retry: true, reason: "server-error", delayMs, via: "sleep" };
    }
  }
}

/**
 * What one failed attempt of a write means, per the contract's retry guidance:
 * - `rate-limited` (429) and `enqueue-failed` (503 SEND_ENQUEUE_FAILED): nothing happened; send the
 *   same call again after `Retry-After` (or the backoff).
 * - `in-progress` (409 with `Retry-After`): a request with the same key is still running; wait
 *   `Retry-After` and send again with the same key (the API then replays the first one's answer).
 * - `unknown` (any other 5xx, a timeout, a dropped connection, an unreadable 2xx): it may have taken
 *   effect; re-read state before sending again.
 * - `refused` (any other 4xx, or a rate-limit wait the client refused: see rate-limit-stall.ts):
 *   do not send the same payload again.
 */
export type WriteFailure = "rate-limited" | "in-progress" | "enqueue-failed" | "unknown" | "refused";

export function writeFailureOf(error: ApiError): WriteFailure {
  // Never sent, and not to be resent: the limiter refuses the key's later requests alike.
  if (isRateLimitStall(error)) return "refused";
  if (error.kind === "network") return "unknown";
  if (error.status === 429) return "rate-limited";
  if (error.status === 409 && error.retryAfterSeconds !== null) return "in-progress";
  if (error.status === 503 && error.code === "SEND_ENQUEUE_FAILED") return "enqueue-failed";
  return error.status >= 500 ? "unknown" : "refused";
}

/**
 * The reason a later attempt of the same write is a retry (for statistics), or null when the
 * failure is final (`refused`: the same payload is never sent again).
 */
export function writeRetryReason(error: ApiError): RetryReason | null {
  const failure = writeFailureOf(error);
  switch (failure) {
    case "rate-limited":
    case "in-progress":
    case "enqueue-failed":
      return failure;
    case "unknown":
      return error.kind === "network" ? "network" : "server-error";
    case "refused":
      return null;
  }
}

/** Whether a final failure may have taken effect (see {@link Outcome}). */
export function outcomeOf(
  method: HttpMethod,
  error: Pick<ApiError, "kind"> & { status: number | null; code?: string; retryAfterSeconds?: number | null },
): "none" | "unknown" {
  switch (method) {
    case "GET":
      return "none";
    case "POST":
      if (error.kind === "network") return "unknown";
      if (error.status === null) return "unknown";
      if (error.status === 409 && error.retryAfterSeconds !== null && error.retryAfterSeconds !== undefined)
        return "unknown";
      if (error.status === 503 && error.code === "SEND_ENQUEUE_FAILED") return "none";
      return error.status >= 500 ? "unknown" : "none";
  }
}
