/**
 * The date range of a status: `--since DAY` (UTC calendar day, `YYYY-MM-DD`) to today on the API's
 * clock, read as the stats windows of `src/plan/refresh-stats.ts` (three windows of at most 31 days,
 * back to the oldest day the contract allows) narrowed to the range: windows that end before
 * `since` are dropped and the oldest one left starts at `since`. A day older than the oldest
 * window's first day, or after today, is refused. Pure.
 */
import { DateTime } from "luxon";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type StatsWindow, statsWindows } from "../plan/refresh-stats.js";

/**
 * The range read. Invariants: `windows` are newest first, each within the contract's limits (at most
 * 31 days, none older than 90), together covering every day from `since` to `until` exactly once;
 * `since <= until`.
 */
export interface StatusRange {
  readonly since: string;
  readonly until: string;
  readonly windows: readonly StatsWindow[];
}

export type RangeResult =
  | { readonly ok: true; readonly range: StatusRange }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

/** Whether `text` is a real calendar day written `YYYY-MM-DD`. */
export function isDay(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && DateTime.fromFormat(text, "yyyy-MM-dd", { zone: "utc" }).isValid;
}

/** The range from `since` (default: the oldest day the statistics cover) to the UTC day of `now`. */
export function statusRange(now: Date, since: string | undefined): RangeResult {
  const all = statsWindows(now);
  const newest = all[0];
  const oldest = all[all.length - 1];
  if (newest === undefined || oldest === undefined) throw new Error("statsWindows returned no window");
  const until = newest.endDate;
  if (since === undefined) return { ok: true, range: { since: oldest.startDate, until, windows: all } };
  if (since > until)
    return {
      ok: false,
      diagnostic: {
        severity: "error",
        code: "status.range-in-future",
        message: `--since ${since} is after today (${until} on the API's clock)`,
        hint: `give a day from ${oldest.startDate} to ${until}`,
      },
    };
  if (since < oldest.startDate)
    return {
      ok: false,
      diagnostic: {
        severity: "error",
        code: "status.range-too-old",
        message: `--since ${since} is older than the statistics reach: GET /projects/stats covers the 90 days from ${oldest.startDate} to today (${until} on the API's clock)`,
        hint: `give --since ${oldest.startDate} or later; older projects' figures are in the dashboard's exports`,
      },
    };
  const windows: StatsWindow[] = [];
  for (const w of all) {
    if (w.endDate < since) break;
    windows.push(
      w.startDate >= since
        ? w
        : { startDate: since, endDate: w.endDate, startMs: Date.parse(`${since}T00:00:00Z`) },
    );
  }
  return { ok: true, range: { since, until, windows } };
}
