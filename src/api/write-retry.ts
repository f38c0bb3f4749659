/**
 * The constants and curve of the one write executor (`write-executor.ts`, design.md "Retries"):
 * the attempt budget, the one backoff curve, and a wait cut short by Ctrl-C. The client itself never
 * retries a write. Pure apart from the injected sleep.
 */
import type { Sleep } from "./rate-limiter.js";

/** Attempts of one write in total, whatever the answers (docs/api-connection.md). */
export const WRITE_MAX_ATTEMPTS = 5;

/** Wait before the second attempt; it doubles after each failed attempt. */
export const WRITE_FIRST_BACKOFF_MS = 1000;

/** Ceiling of the resend curve: no wait between two attempts of a write is longer, unless `Retry-After` says so. */
export const RESEND_CEILING_MS = 16_000;

/**
 * The one backoff curve of a write's attempts: after failed attempt `n` (1-based), wait
 * `firstMs * 2^(n-1)` (capped at {@link RESEND_CEILING_MS}), or the answer's `Retry-After` when that
 * is longer. No jitter: each action has its own key, so two actions' resends never collide, and
 * every request still queues in the one rate limiter.
 */
export function resendDelayMs(
  firstMs: number,
  failedAttempt: number,
  retryAfterSeconds: number | null,
): number {
  const curve = Math.min(RESEND_CEILING_MS, firstMs * 2 ** Math.max(0, failedAttempt - 1));
  return Math.max(curve, (retryAfterSeconds ?? 0) * 1000);
}

/** Resolves after `ms` of the injected clock, or at once when `signal` aborts (whichever is first). */
export function sleepUnlessAborted(sleep: Sleep, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    sleep(ms).then(done, done);
  });
}
