/**
 * Wall-clock arithmetic in the schedule zones without a luxon zone lookup per call (a lookup costs
 * tens of microseconds, and far more in a cold process; a forecast of 1,000 projects made
 * thousands). Offsets are read with luxon once per zone and UTC day, and once per UTC hour only on
 * a day whose offset changes: exact for the contract's six zones, whose offsets are whole hours,
 * change only on a UTC hour boundary and at most once a day. Memoized; pure.
 */
import { DateTime } from "luxon";
import { type LocalTimeOfDay, type SendWindow, windowMinutes } from "../text/send-window.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** By zone and UTC day: the day's one offset, or (a day the offset changes) its 24 hours' offsets. */
const offsets = new Map<string, number | number[]>();
const abbreviations = new Map<string, string>();
const days = new Map<string, readonly (readonly [number, number])[]>();

/** The zone's offset from UTC at `ms`, in minutes. */
export function offsetAt(zone: string, ms: number): number {
  const day = Math.floor(ms / DAY);
  const key = `${zone}|${day}`;
  let known = offsets.get(key);
  if (known === undefined) {
    const start = day * DAY;
    const first = lookUp(zone, start);
    // Equal at both ends of the UTC day: one offset all day (no zone changes twice in a day).
    known =
      first === lookUp(zone, start + DAY - HOUR)
        ? first
        : Array.from({ length: 24 }, (_, h) => lookUp(zone, start + h * HOUR));
    if (offsets.size > 100_000) offsets.clear();
    offsets.set(key, known);
  }
  return typeof known === "number" ? known : (known[Math.floor((ms - day * DAY) / HOUR)] as number);
}

function lookUp(zone: string, ms: number): number {
  return DateTime.fromMillis(ms, { zone }).offset;
}

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
    abbreviation = DateTime.fromMillis(ms, { zone }).toFormat("ZZZZ");
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
    const midnight = DateTime.fromISO(dateOf(day), { zone }).startOf("day");
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
