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

/** The waits each signal cuts short, and the one abort listener that wakes them. */
interface Waiters {
  readonly wakes: Set<() => void>;
  readonly onAbort: () => void;
}

const waitersOf = new WeakMap<AbortSignal, Waiters>();

/**
 * Resolves after `ms` of the injected clock, or at once when `signal` aborts (whichever is first).
 * However many waits share a signal (every action of a run backing off at once: 20 keys x 4 in
 * flight), the signal holds one abort listener, removed when the last wait ends: a listener per
 * wait made Node warn of a leak (MaxListenersExceededWarning, 11 abort listeners).
 */
export function sleepUnlessAborted(sleep: Sleep, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let waiters = waitersOf.get(signal);
    if (waiters === undefined) {
      const wakes = new Set<() => void>();
      const onAbort = () => {
        waitersOf.delete(signal);
        for (const wake of [...wakes]) wake();
      };
      waiters = { wakes, onAbort };
      waitersOf.set(signal, waiters);
      signal.addEventListener("abort", onAbort, { once: true });
    }
    const own = waiters;
    const done = () => {
      if (!own.wakes.delete(done)) return;
      if (own.wakes.size === 0 && waitersOf.get(signal) === own) {
        waitersOf.delete(signal);
        signal.removeEventListener("abort", own.onAbort);
      }
      resolve();
    };
    own.wakes.add(done);
    sleep(ms).then(done, done);
  });
}
