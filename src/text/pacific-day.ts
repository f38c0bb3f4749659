/**
 * Pacific days (America/Los_Angeles calendar days, DST-aware with luxon: 23 and 25 hours on the
 * change days), the days a brand's daily cap counts in: the forecast's and the sandbox's (one rule).
 * Memoized per day (the zone's days never change in a process, so the memo is safe to share): a
 * forecast of thousands of projects asks for a handful of days, and the sandbox asks at every send.
 */
import { DateTime } from "luxon";

export const CAP_ZONE = "America/Los_Angeles";

export interface PacificDay {
  /** `YYYY-MM-DD`. */
  readonly day: string;
  readonly startMs: number;
  /** The next Pacific midnight. */
  readonly endMs: number;
}

const known: PacificDay[] = [];

/** The Pacific day holding `ms`. */
export function pacificDayOf(ms: number): PacificDay {
  // The newest first: a run of sends asks for the same day again and again.
  for (let i = known.length - 1; i >= 0; i--) {
    const d = known[i] as PacificDay;
    if (ms >= d.startMs && ms < d.endMs) return d;
  }
  const start = DateTime.fromMillis(ms, { zone: CAP_ZONE }).startOf("day");
  const d = {
    day: start.toFormat("yyyy-MM-dd"),
    startMs: start.toMillis(),
    endMs: start.plus({ days: 1 }).toMillis(),
  };
  if (known.length > 64) known.shift();
  known.push(d);
  return d;
}
