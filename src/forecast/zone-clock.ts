/**
 * Wall-clock arithmetic in the schedule zones without a luxon zone lookup per call (a lookup costs
 * tens of microseconds, and far more in a cold process; a forecast of 1,000 projects made
 * thousands). Offsets come from the one offset cache of the send window (`offsetAt` of
 * src/jurisdictions/zone-days.ts: read with luxon once per zone and UTC day, per quarter hour only
 * on a day the offset changes). Memoized; pure.
 */
import { DateTime } from "luxon";
import { offsetAt } from "../jurisdictions/zone-days.js";
import { type LocalTimeOfDay, type SendWindow, windowMinutes } from "../text/send-window.js";
import { FIXED_LOCALE, zoneAbbreviation, zoneNamed } from "../text/zone-offsets.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const abbreviations = new Map<string, string>();
const days = new Map<string, readonly (readonly [number, number])[]>();

/** The wall-clock time of day of `ms` in the zone (what the send window's boundary rule reads). */
export function localTimeOfDay(zone: string, ms: number): LocalTimeOfDay {
  const wall = ms + offsetAt(zone, ms) * 60_000;
  const inDay = wall - Math.floor(wall / DAY) * DAY;
  return {
    hour: Math.floor(inDay / HOUR),
    minute: Math.floor(inDay / 60_000) % 60,
    second: Math.floor(inDay / 1000) % 60,
    millisecond: inDay % 1000,
  };
}

/** The local day of `ms` in the zone: days since 1970-01-01 on the zone's calendar. */
export function localDay(zone: string, ms: number): number {
  return Math.floor((ms + offsetAt(zone, ms) * 60_000) / DAY);
}

/** `yyyy-MM-dd HH:mm` and the zone's abbreviation at `ms` (e.g. `2026-11-03 17:00 PST`). */
export function localTime(ms: number, zone: string): string {
  const offset = offsetAt(zone, ms);
  const key = `${zone}|${offset}`;
  let abbreviation = abbreviations.get(key);
  if (abbreviation === undefined) {
    abbreviation = zoneAbbreviation(zone, ms);
    abbreviations.set(key, abbreviation);
  }
  // Arithmetic, not Date#toISOString: a forecast formats thousands of these.
  const wall = ms + offset * 60_000;
  const day = Math.floor(wall / DAY);
  const minute = Math.floor((wall - day * DAY) / 60_000);
  return `${dateOf(day)} ${TWO_DIGITS[Math.floor(minute / 60)]}:${TWO_DIGITS[minute % 60]} ${abbreviation}`;
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, "0"));
const dates = new Map<number, string>();

/** `yyyy-MM-dd` of a day since 1970-01-01 (memoized: a forecast spans a handful of days). */
function dateOf(day: number): string {
  let date = dates.get(day);
  if (date === undefined) {
    date = new Date(day * DAY).toISOString().slice(0, 10);
    if (dates.size > 10_000) dates.clear();
    dates.set(day, date);
  }
  return date;
}

/**
 * The instants of one local day's windows: for local day `day` (see {@link localDay}) in `zone`,
 * each `[from, to)` of the window's minutes (after local midnight; 1440 is the next midnight) as
 * epoch ms, read with luxon (a DST day is 23 or 25 hours long) once per zone, day and window.
 */
export function dayWindows(
  zone: string,
  day: number,
  window: SendWindow,
): readonly (readonly [number, number])[] {
  const key = `${zone}|${day}|${window.from}|${window.to}`;
  let windows = days.get(key);
  if (windows === undefined) {
    const midnight = DateTime.fromISO(dateOf(day), { zone: zoneNamed(zone), ...FIXED_LOCALE }).startOf("day");
    const at = (m: number) =>
      m >= 24 * 60
        ? midnight.plus({ days: 1 }).toMillis()
        : midnight.set({ hour: Math.floor(m / 60), minute: m % 60 }).toMillis();
    windows = windowMinutes(window).map(([a, b]) => [at(a), at(b)] as const);
    if (days.size > 10_000) days.clear();
    days.set(key, windows);
  }
  return windows;
}
