/**
 * The period `results` shows, and its trend's buckets (docs/results.md "The period"). Days are UTC
 * calendar days, both ends included: `--since`/`--until`, or one `--month YYYY-MM`, `--year YYYY`, or
 * `--cycle YYYY` (an even year: the two-year election cycle that ends with it, as the FEC counts
 * it: 2026 is 2025-01-01 to 2026-12-31). Without any, the period is every day the store has a
 * snapshot of, so no clock is read. Pure.
 */
import { isDay } from "../status/range.js";

/** How the trend is cut: by day, by week (Monday to Sunday, UTC) or by calendar month. */
export type BucketSize = "day" | "week" | "month";

export const BUCKET_SIZES: readonly BucketSize[] = ["day", "week", "month"];

/** One bucket of the trend: days `start` to `end`, both included; `[startMs, endMs)`. */
export interface Bucket {
  readonly start: string;
  readonly end: string;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * The period. Invariants: `since <= until`; `[startMs, endMs)` is from the first instant of `since`
 * to the first instant after `until`; the buckets cover it exactly, in order, without overlap.
 */
export interface Period {
  readonly since: string;
  readonly until: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly every: BucketSize;
  readonly buckets: readonly Bucket[];
}

/** The period flags as given (each already a string, unchecked). */
export interface PeriodFlags {
  readonly since?: string;
  readonly until?: string;
  readonly month?: string;
  readonly year?: string;
  readonly cycle?: string;
  readonly every?: string;
}

const DAY_MS = 86_400_000;
const dayMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The problems of the flags (usage errors), before anything is read. */
export function periodProblems(flags: PeriodFlags): string[] {
  const problems: string[] = [];
  const named = (["month", "year", "cycle"] as const).filter((f) => flags[f] !== undefined);
  if (named.length > 1) problems.push(`--${named.join(" and --")} disagree: give one period`);
  if (named.length > 0 && (flags.since !== undefined || flags.until !== undefined))
    problems.push(`--${named[0]} and --since/--until disagree: give one period`);
  for (const f of ["since", "until"] as const) {
    const value = flags[f];
    if (value !== undefined && !isDay(value))
      problems.push(`--${f} ${value} is not a day written YYYY-MM-DD`);
  }
  if (flags.since !== undefined && flags.until !== undefined && isDay(flags.since) && isDay(flags.until))
    if (flags.since > flags.until) problems.push(`--since ${flags.since} is after --until ${flags.until}`);
  if (flags.month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(flags.month))
    problems.push(`--month ${flags.month} is not a month written YYYY-MM`);
  if (flags.year !== undefined && !/^\d{4}$/.test(flags.year))
    problems.push(`--year ${flags.year} is not a year written YYYY`);
  if (flags.cycle !== undefined && !(/^\d{4}$/.test(flags.cycle) && Number(flags.cycle) % 2 === 0))
    problems.push(
      `--cycle ${flags.cycle} is not an even year (an election cycle is named by the year it ends)`,
    );
  if (flags.every !== undefined && !(BUCKET_SIZES as readonly string[]).includes(flags.every))
    problems.push(`--every ${flags.every} is not one of ${BUCKET_SIZES.join(", ")}`);
  return problems;
}

/**
 * The period of checked flags; `recorded` is the first and last day the store has a snapshot of
 * (for the defaults), null when it has none (then the defaults are the day `fallbackDay`).
 */
export function periodOf(
  flags: PeriodFlags,
  recorded: { readonly first: string; readonly last: string } | null,
  fallbackDay: string,
): Period {
  const [since, until] = bounds(flags, recorded, fallbackDay);
  const startMs = dayMs(since);
  const endMs = dayMs(until) + DAY_MS;
  const days = (endMs - startMs) / DAY_MS;
  const every: BucketSize =
    (flags.every as BucketSize | undefined) ?? (days <= 62 ? "day" : days <= 366 ? "week" : "month");
  return { since, until, startMs, endMs, every, buckets: bucketsOf(startMs, endMs, every) };
}

function bounds(
  flags: PeriodFlags,
  recorded: { readonly first: string; readonly last: string } | null,
  fallbackDay: string,
): [string, string] {
  if (flags.month !== undefined) {
    const [y, m] = flags.month.split("-").map(Number) as [number, number];
    return [`${flags.month}-01`, dayOf(Date.UTC(y, m, 1) - DAY_MS)];
  }
  if (flags.year !== undefined) return [`${flags.year}-01-01`, `${flags.year}-12-31`];
  if (flags.cycle !== undefined) return [`${Number(flags.cycle) - 1}-01-01`, `${flags.cycle}-12-31`];
  const since = flags.since ?? recorded?.first ?? flags.until ?? fallbackDay;
  const until = flags.until ?? recorded?.last ?? since;
  return since <= until ? [since, until] : [since, since];
}

/** The buckets of `[startMs, endMs)`: whole days, Monday weeks or calendar months, cut to the period. */
export function bucketsOf(startMs: number, endMs: number, every: BucketSize): Bucket[] {
  const out: Bucket[] = [];
  let from = startMs;
  while (from < endMs) {
    const next = Math.min(endMs, nextBoundary(from, every));
    out.push({ start: dayOf(from), end: dayOf(next - DAY_MS), startMs: from, endMs: next });
    from = next;
  }
  return out;
}

function nextBoundary(ms: number, every: BucketSize): number {
  switch (every) {
    case "day":
      return ms + DAY_MS;
    case "week": {
      const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0
      return ms + (7 - weekday) * DAY_MS;
    }
    case "month": {
      const d = new Date(ms);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    }
  }
}
