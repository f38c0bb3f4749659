/**
 * Wall-clock arithmetic in the schedule zones without a luxon zone lookup per call (a lookup costs
 * tens of microseconds; a forecast of 1,000 projects made thousands). Offsets are read with luxon
 * once per zone and UTC hour: exact for the contract's six zones, whose offsets are whole hours or
 * change only on a UTC hour boundary. Memoized; pure.
 */
import { DateTime } from "luxon";

const HOUR = 3_600_000;
const offsets = new Map<string, number>();
const abbreviations = new Map<string, string>();
const days = new Map<string, readonly (readonly [number, number])[]>();

/** The zone's offset from UTC at `ms`, in minutes. */
export function offsetAt(zone: string, ms: number): number {
  const key = `${zone}|${Math.floor(ms / HOUR)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = DateTime.fromMillis(ms, { zone }).offset;
    if (offsets.size > 100_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

/** `yyyy-MM-dd` of `ms` in the zone. */
export function localDate(zone: string, ms: number): string {
  return new Date(ms + offsetAt(zone, ms) * 60_000).toISOString().slice(0, 10);
}

/** `yyyy-MM-dd HH:mm` and the zone's abbreviation at `ms` (e.g. `2026-11-03 17:00 PST`). */
export function localTime(ms: number, zone: string): string {
  const offset = offsetAt(zone, ms);
  const wall = new Date(ms + offset * 60_000).toISOString();
  const key = `${zone}|${offset}`;
  let abbreviation = abbreviations.get(key);
  if (abbreviation === undefined) {
    abbreviation = DateTime.fromMillis(ms, { zone }).toFormat("ZZZZ");
    abbreviations.set(key, abbreviation);
  }
  return `${wall.slice(0, 10)} ${wall.slice(11, 16)} ${abbreviation}`;
}

/**
 * The instants of one local day's windows: for `date` (`yyyy-MM-dd`) in `zone`, each `[from, to)`
 * of `minutes` (after local midnight; 1440 is the next midnight) as epoch ms, read with luxon (a DST
 * day is 23 or 25 hours long) once per zone, date and windows. Also the next day's date.
 */
export function dayWindows(
  zone: string,
  date: string,
  minutes: readonly (readonly [number, number])[],
): readonly (readonly [number, number])[] {
  const key = `${zone}|${date}|${minutes.join(";")}`;
  let windows = days.get(key);
  if (windows === undefined) {
    const day = DateTime.fromISO(date, { zone }).startOf("day");
    const at = (m: number) =>
      m >= 24 * 60
        ? day.plus({ days: 1 }).toMillis()
        : day.set({ hour: Math.floor(m / 60), minute: m % 60 }).toMillis();
    windows = minutes.map(([a, b]) => [at(a), at(b)] as const);
    if (days.size > 10_000) days.clear();
    days.set(key, windows);
  }
  return windows;
}

/** The date after `date` (`yyyy-MM-dd`). */
export function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
}
