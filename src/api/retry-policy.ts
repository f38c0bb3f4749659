/**
 * When to retry a failed attempt, and how long to wait first (design.md, "Retries"). Pure: the
 * random source is injected.
 */
import type { ApiError, HttpMethod } from "./result.js";

/** Bounds of the retry loop. */
export interface RetryOptions {
  /**
   * Attempts for a GET failing with 5xx or in transport, and for 503 SEND_ENQUEUE_FAILED writes.
   * Attempts answered 429 or 409-with-Retry-After do not count (see {@link serverAttempts}).
   */
  readonly maxAttempts: number;
  /** 429 retries per call before the 429 is returned. */
  readonly max429Retries: number;
  /** Retries of a write answered 409 with Retry-After (same key still running). */
  readonly maxConflictRetries: number;
  /** First backoff delay; doubles per attempt. */
  readonly baseDelayMs: number;
  /** Backoff ceiling. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  max429Retries: 5,
  maxConflictRetries: 5,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
};

/** Why a retry happens; carried in events and counted in statistics. */
export type RetryReason = "rate-limited" | "in-progress" | "enqueue-failed" | "server-error" | "network";

/**
 * Decision after a failed attempt. `via: "limiter"` means every caller waits (a 429 exhausts the key
 * for all); `via: "sleep"` means only this call waits.
 */
export type RetryDecision =
  | { readonly retry: false }
  | {
      readonly retry: true;
      readonly reason: RetryReason;
      readonly delayMs: number;
      readonly via: "limiter" | "sleep";
    };

/** Retries so far, per kind, of one call. */
export interface RetryCounts {
  /** Attempts made so far (1 after the first). */
  readonly attempts: number;
  readonly rateLimited: number;
  readonly inProgress: number;
}

/**
 * Attempts that count against `maxAttempts`: those that failed in transport or with a 5xx. A 429 or
 * a 409 "still running" says nothing about the server's health, so it has its own budget and never
 * uses up the retries meant for server errors.
 */
export function serverAttempts(counts: RetryCounts): number {
  return counts.attempts - counts.rateLimited - counts.inProgress;
}

/** Exponential backoff with equal jitter: half fixed, half `random()`; `attempt` is 1-based. */
export function backoffMs(attempt: number, options: RetryOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * Math.min(1, Math.max(0, random())));
}

/**
 * Reads are retried on transport failures and 5xx; writes only where the contract says nothing
 * happened or the same key is still running: 429, 409 with Retry-After, 503 SEND_ENQUEUE_FAILED.
 * Every other write failure is returned (with outcome unknown where it may have taken effect).
 */
export function decideRetry(
  method: HttpMethod,
  error: ApiError,
  counts: RetryCounts,
  options: RetryOptions,
  random: () => number,
): RetryDecision {
  const stop: RetryDecision = { retry: false };
  const served = serverAttempts(counts);
  if (error.kind === "network") {
    if (method !== "GET" || served >= options.maxAttempts) return stop;
    return {
      retry: true,
      reason: "network",
      delayMs: backoffMs(served, options, random),
      via: "sleep",
    };
  }
  const afterMs = error.retryAfterSeconds === null ? null : error.retryAfterSeconds * 1000;
  if (error.status === 429) {
    if (counts.rateLimited >= options.max429Retries) return stop;
    return { retry: true, reason: "rate-limited", delayMs: afterMs ?? 1000, via: "limiter" };
  }
  switch (method) {
    case "GET": {
      if (error.status < 500 || served >= options.maxAttempts) return stop;
      const delayMs = Math.max(backoffMs(served, options, random), afterMs ?? 0);
      return { retry: true, reason: "server-error", delayMs, via: "sleep" };
    }
    case "POST": {
      if (error.status === 409 && afterMs !== null) {
        if (counts.inProgress >= options.maxConflictRetries) return stop;
        return { retry: true, reason: "in-progress", delayMs: afterMs, via: "sleep" };
      }
      if (error.status === 503 && error.code === "SEND_ENQUEUE_FAILED") {
        if (served >= options.maxAttempts) return stop;
        const delayMs = Math.max(backoffMs(served, options, random), afterMs ?? 0);
        return { retry: true, reason: "enqueue-failed", delayMs, via: "sleep" };
      }
      return stop;
    }
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
