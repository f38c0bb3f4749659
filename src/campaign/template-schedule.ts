/**
 * A template's schedule is a wall-clock time without offset (`local: 2026-12-07T10:00`), read in each
 * instance's timezone: the offset is the zone's at that date (luxon's zone rules), so one template
 * sends at 10:00 in Chicago and at 10:00 in Denver, before and after a daylight-saving change. Pure.
 */
import { DateTime, FixedOffsetZone } from "luxon";
import type { ScheduleTimezone } from "../contract/limits.js";

export type LocalTimeResult =
  /** An ISO 8601 date-time with the zone's offset at that date, such as `2026-12-07T10:00:00-06:00`. */
  | { readonly kind: "at"; readonly at: string }
  /** The time does not exist in the zone (skipped when clocks spring forward). */
  | { readonly kind: "skipped"; readonly zone: ScheduleTimezone };

/**
 * `local` (YYYY-MM-DDTHH:MM[:SS], checked by the schema) in `zone`. A time that happens twice (clocks
 * fall back) is the first of the two (the earlier offset), as luxon resolves it.
 */
export function localToAt(local: string, zone: ScheduleTimezone): LocalTimeResult {
  // Every instance of a template usually shares one time and a few zones: converted once each.
  const key = `${local} ${zone}`;
  const known = converted.get(key);
  if (known !== undefined) return known;
  if (converted.size >= MAX_REMEMBERED) converted.clear();
  const result = convert(local, zone);
  converted.set(key, result);
  return result;
}

/** Conversions remembered (a pure function's results), at most this many. */
const MAX_REMEMBERED = 1024;
const converted = new Map<string, LocalTimeResult>();

function convert(local: string, zone: ScheduleTimezone): LocalTimeResult {
  const withSeconds = local.length === 16 ? `${local}:00` : local;
  const guess = DateTime.fromISO(withSeconds, { zone });
  if (!guess.isValid) return { kind: "skipped", zone };
  // The zone's offsets around that date: each reading of the wall-clock time at one of them that
  // reads back as written is a real instant; none for a skipped time, two for a repeated one.
  const around = [-3, 0, 3].map((hours) => guess.plus({ hours }).offset);
  const instants = [...new Set(around)]
    .map((offset) => DateTime.fromISO(withSeconds, { zone: FixedOffsetZone.instance(offset) }).setZone(zone))
    .filter((time) => time.isValid && time.toFormat("yyyy-MM-dd'T'HH:mm:ss") === withSeconds)
    .sort((a, b) => a.toMillis() - b.toMillis());
  const first = instants[0];
  if (first === undefined) return { kind: "skipped", zone };
  return { kind: "at", at: first.toISO({ suppressMilliseconds: true, includeOffset: true }) ?? withSeconds };
}
