/**
 * Virtual time for the listener's outbox: a clock that moves only when the test says, and a sleep
 * (the forward loop's) that resolves when the clock passes its end or its signal aborts. No real
 * timer is involved, so the tests of backoff and limits do not depend on the machine's speed.
 */
import type { Sleep } from "../../src/webhooks/forward-loop.js";

export interface VirtualTime {
  readonly clock: () => number;
  readonly sleep: Sleep;
  /** Moves the clock on by `ms` and wakes every sleeper whose end has come. */
  advance(ms: number): void;
  /** Sleepers waiting. */
  sleepers(): number;
}

export function virtualTime(startMs: number): VirtualTime {
  let now = startMs;
  const sleepers = new Set<{ readonly until: number; readonly wake: () => void }>();
  return {
    clock: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const sleeper = {
          until: now + ms,
          wake: () => {
            sleepers.delete(sleeper);
            resolve();
          },
        };
        sleepers.add(sleeper);
        signal.addEventListener("abort", sleeper.wake, { once: true });
      }),
    advance(ms) {
      now += ms;
      for (const sleeper of [...sleepers]) if (sleeper.until <= now) sleeper.wake();
    },
    sleepers: () => sleepers.size,
  };
}
