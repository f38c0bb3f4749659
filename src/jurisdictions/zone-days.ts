/**
 * The local days of a zone, for the one send window (send-rules.ts): each zone's offset read with
 * luxon once per UTC day (per quarter hour only on a day it changes), local midnights and window
 * edges laid by arithmetic where the offset is steady and with luxon where it is not (DST days,
 * changes at midnight). Memoized per zone; pure (luxon, DST-aware). Issue 36: the send window read
 * luxon once per quarter hour and three times per local day, a thousand lookups in a cold forecast.
 */
import { DateTime } from "luxon";
import type { SendWindow } from "../text/send-window.js";
import { FIXED_LOCALE, zoneNamed, zoneOffset } from "../text/zone-offsets.js";
import { WEEKDAYS, type Weekday } from "./pack.js";

/**
 * One local day of a zone: its date, its first instant and the next day's (23 or 25 hours apart on
 * a DST change), its day of the week.
 */
export interface LocalDay {
  readonly date: string;
  /** Days since 1970-01-01 on the zone's calendar. */
  readonly number: number;
  readonly startMs: number;
  readonly endMs: number;
  readonly weekday: Weekday;
  /** Its allowed stretches by window (allowedOnDay's memo; a window is a constant or the policy's). */
  readonly stretches: Map<SendWindow, readonly (readonly [number, number])[]>;
}

const SLOT_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
/** By zone, then UTC day: the day's one offset, or (a day the offset changes) its quarter hours' offsets. */
const OFFSETS = new Map<string, Map<number, number | number[]>>();
/** By zone, then local day (days since 1970-01-01 on the zone's calendar). */
const DAYS = new Map<string, Map<number, LocalDay>>();

/** The inner map of `outer` for `zone`, made on first use. */
function byZone<V>(outer: Map<string, Map<number, V>>, zone: string): Map<number, V> {
  let inner = outer.get(zone);
  if (inner === undefined) {
    inner = new Map();
    outer.set(zone, inner);
  }
  return inner;
}

/**
 * The zone's offset at `ms`, in minutes: read with luxon at both ends of the UTC day (one offset
 * all day when they agree: no zone changes its offset and back within a day), else once per
 * quarter hour of that day (offsets change only on a quarter hour). A judge of thousands of sends
 * asks for a few zones over a few days: a handful of lookups, not one per quarter hour.
 */
export function offsetAt(zone: string, ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  const days = byZone(OFFSETS, zone);
  let known = days.get(day);
  if (known === undefined) {
    const start = day * DAY_MS;
    const first = lookUpOffset(zone, start);
    known =
      first === lookUpOffset(zone, start + DAY_MS - 1)
        ? first
        : Array.from({ length: DAY_MS / SLOT_MS }, (_, q) => lookUpOffset(zone, start + q * SLOT_MS));
    if (days.size > 10_000) days.clear();
    days.set(day, known);
  }
  return typeof known === "number" ? known : (known[Math.floor((ms - day * DAY_MS) / SLOT_MS)] as number);
}

/** luxon's offset, from the table where it answers (text/zone-offsets.ts: no Intl). */
function lookUpOffset(zone: string, ms: number): number {
  return zoneOffset(zone, ms);
}

/** The local day of `zone` holding `ms` (memoized per zone and date). */
export function localDayOf(zone: string, ms: number): LocalDay {
  const number = Math.floor((ms + offsetAt(zone, ms) * 60_000) / DAY_MS);
  const days = byZone(DAYS, zone);
  let day = days.get(number);
  if (day === undefined) {
    const date = new Date(number * DAY_MS).toISOString().slice(0, 10);
    day = {
      date,
      number,
      startMs: instantOf(zone, number, 0, date),
      endMs: instantOf(zone, number + 1, 0, date, 1),
      // 1970-01-01 was a Thursday.
      weekday: WEEKDAYS[(((number + 3) % 7) + 7) % 7] as Weekday,
      stretches: new Map(),
    };
    if (days.size > 10_000) days.clear();
    days.set(number, day);
  }
  return day;
}

const STEADY_MS = 3 * 3_600_000;

/**
 * The instant of `minute` minutes after midnight of local day `number` in `zone` (luxon's reading:
 * DST-aware). By arithmetic from the memoized offsets when the offset is the same three hours either
 * side (no change near it, so the wall-clock time exists once); else with luxon, from `date` (the
 * local day `number - plusDays`).
 */
export function instantOf(zone: string, number: number, minute: number, date: string, plusDays = 0): number {
  const wall = number * DAY_MS + minute * 60_000;
  const guess = wall - offsetAt(zone, wall) * 60_000;
  const offset = offsetAt(zone, guess);
  if (offsetAt(zone, guess - STEADY_MS) === offset && offsetAt(zone, guess + STEADY_MS) === offset)
    return wall - offset * 60_000;
  const start = DateTime.fromISO(date, { zone: zoneNamed(zone), ...FIXED_LOCALE }).startOf("day");
  // No `plus` of no days: luxon's Duration asks `Intl` for the system's locale (ICU's set-up, ~13 ms).
  const midnight = plusDays === 0 ? start : start.plus({ days: plusDays });
  return minute === 0
    ? midnight.toMillis()
    : midnight.set({ hour: Math.floor(minute / 60), minute: minute % 60 }).toMillis();
}
