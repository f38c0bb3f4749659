/**
 * A debouncer per key (a document's URI): each call restarts the key's delay, and the action runs
 * once the key has been quiet for it. The timer is passed in, so tests drive it without real time.
 */

/** Schedules `run` after `ms` and returns a way to cancel it (setTimeout/clearTimeout in the server). */
export type Schedule = (run: () => void, ms: number) => () => void;

/**
 * The system timer as a Schedule. No delay runs at the event loop's next turn (`setImmediate`),
 * after the messages already read: a zero `setTimeout` is a 1 ms timer, and the loop may sleep
 * for it (on a busy machine, a wait to be scheduled again).
 */
export const systemSchedule: Schedule = (run, ms) => {
  if (ms <= 0) {
    const immediate = setImmediate(run);
    return () => clearImmediate(immediate);
  }
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/** Per-key debouncing. Invariant: at most one pending run per key; `cancel` drops a key's run. */
export interface Debouncer {
  readonly call: (key: string, run: () => void) => void;
  readonly cancel: (key: string) => void;
  /** Drops every pending run (the session ended). */
  readonly cancelAll: () => void;
}

export function debouncer(delayMs: number, schedule: Schedule): Debouncer {
  const pending = new Map<string, () => void>();
  const cancel = (key: string): void => {
    pending.get(key)?.();
    pending.delete(key);
  };
  return {
    call: (key, run) => {
      cancel(key);
      pending.set(
        key,
        schedule(() => {
          pending.delete(key);
          run();
        }, delayMs),
      );
    },
    cancel,
    cancelAll: () => {
      for (const key of [...pending.keys()]) cancel(key);
    },
  };
}
