/**
 * Stopping a long-running command: SIGINT (Ctrl-C) and SIGTERM, and the waits an abort ends.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { Sleep } from "../../src/api/index.js";

/** Calls `handler` on SIGINT (Ctrl-C) and SIGTERM; returns the unsubscribe. */
export function onStopSignal(handler: () => void): () => void {
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}

/**
 * The waits of a run that `signal` stops within a second, whatever is in flight: `stoppable` returns
 * early on abort (the worker's waits); `abandoned` never returns once aborted (the client's retries
 * and Retry-After waits: dropped, they hold no timer that would keep the process alive, and never
 * resume, where a retry loop would spin).
 */
export function abortableSleeps(signal: AbortSignal): {
  readonly stoppable: Sleep;
  readonly abandoned: Sleep;
} {
  return {
    stoppable: (ms) => delay(ms, undefined, { signal }).catch(() => undefined),
    abandoned: (ms) => delay(ms, undefined, { signal }).catch(() => new Promise<void>(() => {})),
  };
}
