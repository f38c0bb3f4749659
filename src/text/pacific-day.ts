/**
 * Pacific days (America/Los_Angeles calendar days, DST-aware with luxon: 23 and 25 hours on the
 * change days), the days a brand's daily cap counts in: the forecast's and the sandbox's (one rule).
 * Memoized per day (the zone's days never change in a process, so the memo is safe to share): a
 * forecast of thousands of projects asks for a handful of days, and the sandbox asks at every send.
 */
import { DateTime } from "luxon";
import { FIXED_LOCALE, zoneNamed } from "./zone-offsets.js";

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
  // The table's zone and a named locale: no `Intl` in this runtime (text/zone-offsets.ts).
  const start = DateTime.fromMillis(ms, { zone: zoneNamed(CAP_ZONE), ...FIXED_LOCALE }).startOf("day");
  const d = {
    day: start.toFormat("yyyy-MM-dd"),
    startMs: start.toMillis(),
    // The next day's first instant: luxon's `plus({ days: 1 })` of this midnight (Pacific days
    // change offset at 2 a.m., never at midnight), without the Duration whose locale luxon asks
    // `Intl` for (a process's first `Intl.DateTimeFormat` is about 13 ms of ICU set-up).
    endMs: DateTime.fromMillis(start.toMillis() + 30 * 3_600_000, { zone: start.zone, ...FIXED_LOCALE })
      .startOf("day")
      .toMillis(),
  };
  if (known.length > 64) known.shift();
  known.push(d);
  return d;
}
