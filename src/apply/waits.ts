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

/** Exponential backoff without jitter (one key per action, so retries of one action never collide). */
export function backoff(firstMs: number, attempt: number, ceilingMs = 16_000): number {
  return Math.min(ceilingMs, firstMs * 2 ** Math.max(0, attempt - 1));
}

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
