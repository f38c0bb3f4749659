/** Waiting on the injected clock, cut short by the abort signal. */
import type { Sleep } from "../api/index.js";

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

/** Ceiling of the resend curve: no wait between two attempts of a write is longer, unless `Retry-After` says so. */
export const RESEND_CEILING_MS = 16_000;

/**
 * The one backoff curve of a write's attempts (`perform.ts`): after failed attempt `n` (1-based),
 * wait `firstMs * 2^(n-1)` (capped at {@link RESEND_CEILING_MS}), or the answer's `Retry-After` when
 * that is longer. No jitter: each action has its own key, so two actions' resends never collide,
 * and every request still queues in the one rate limiter.
 */
export function resendDelayMs(
  firstMs: number,
  failedAttempt: number,
  retryAfterSeconds: number | null,
): number {
  const curve = Math.min(RESEND_CEILING_MS, firstMs * 2 ** Math.max(0, failedAttempt - 1));
  return Math.max(curve, (retryAfterSeconds ?? 0) * 1000);
}

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
