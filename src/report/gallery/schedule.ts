/**
 * A project's schedule as the recipients see it: the send time in the schedule's timezone (the
 * recipients' zone, one of the contract's US zones), with its offset, and in UTC. Pure.
 */

import { DateTime } from "luxon";
import type { ScheduleSpec } from "../../campaign/model.js";

/**
 * `local` is the wall-clock time in `timezone` (e.g. `Mon, Dec 7, 2026, 10:00 AM CST`) and `utc`
 * the same instant in UTC (`2026-12-07 16:00 UTC`); both null for `at: now`. `at` is as written in
 * the file.
 */
export interface GallerySchedule {
  readonly at: string;
  readonly timezone: string;
  readonly local: string | null;
  readonly utc: string | null;
  readonly dailyCapBypass: boolean;
}

export function describeSchedule(schedule: ScheduleSpec): GallerySchedule {
  const base = { at: schedule.at, timezone: schedule.timezone, dailyCapBypass: schedule.dailyCapBypass };
  if (schedule.at === "now") return { ...base, local: null, utc: null };
  const time = zonedTime(schedule.at, schedule.timezone);
  return { ...base, local: time?.local ?? null, utc: time?.utc ?? null };
}

/** A send time: in the recipients' zone (`Mon, Dec 7, 2026, 10:00 AM CST`) and in UTC. */
export interface ZonedTime {
  readonly local: string;
  /** The schedule's IANA zone; null when the live project names none (`local` is then as written). */
  readonly timezone: string | null;
  /** `2026-12-07 16:00 UTC`. */
  readonly utc: string;
  /** The instant, ISO 8601 in UTC (for `<time datetime>`). */
  readonly iso: string;
}

/** `at` (ISO with offset) in `timezone` and in UTC; undefined when unreadable. */
export function zonedTime(at: string, timezone: string | null): ZonedTime | undefined {
  const instant = DateTime.fromISO(at, { setZone: true });
  if (!instant.isValid) return undefined;
  const zoned = timezone === null ? instant : instant.setZone(timezone);
  const local = (zoned.isValid ? zoned : instant)
    .setLocale("en-US")
    .toFormat("ccc, LLL d, yyyy, h:mm a ZZZZ");
  const utc = instant.toUTC();
  return {
    local,
    timezone,
    utc: `${utc.toFormat("yyyy-MM-dd HH:mm")} UTC`,
    iso: utc.toISO({ suppressMilliseconds: true }) ?? at,
  };
}
