/**
 * The one clock of progress lines (`progress.ts` for apply, `request-progress.ts` for plan and
 * preview): elapsed time since the run started, on this machine's clock (`Io.clock`, injected),
 * never the API's. The API's clock (the server's `Date`, the sandbox's virtual time) is for what
 * the reports and the journal record; mixing the two made elapsed times jump and go backwards.
 */
import { formatDuration } from "../../src/text/duration.js";

/** A stopwatch. Invariant: `elapsedMs()` never decreases and starts at 0. */
export interface Stopwatch {
  /** Milliseconds since the stopwatch was started (or restarted). */
  readonly elapsedMs: () => number;
  /** Starts counting again from 0 (at a run's start). */
  readonly restart: () => void;
}

/**
 * A stopwatch on `clock` (milliseconds, as `Io.clock`). A clock that steps back (the wall clock
 * corrected by NTP) holds the reading where it was instead of going backwards.
 */
export function stopwatch(clock: () => number): Stopwatch {
  let last = clock();
  let start = last;
  const now = (): number => {
    last = Math.max(last, clock());
    return last;
  };
  return {
    elapsedMs: () => now() - start,
    restart: () => {
      start = now();
    },
  };
}

/** The prefix of a progress line: `+1m 5s`, the time since the run started. */
export function elapsedPrefix(elapsedMs: number): string {
  return `+${formatDuration(elapsedMs)}`;
}
