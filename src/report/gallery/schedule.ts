/**
 * A project's schedule as the recipients see it: the send time in the schedule's timezone (the
 * recipients' zone, one of the contract's US zones), with its offset. Pure.
 */
import { DateTime } from "luxon";
import type { ScheduleSpec } from "../../campaign/model.js";

/**
 * `local` is the wall-clock time in `timezone` (e.g. `Mon, Dec 7, 2026, 10:00 AM CST`), or null for
 * `at: now`. `at` is as written in the file.
 */
export interface GallerySchedule {
  readonly at: string;
  readonly timezone: string;
  readonly local: string | null;
  readonly dailyCapBypass: boolean;
}

export function describeSchedule(schedule: ScheduleSpec): GallerySchedule {
  const base = { at: schedule.at, timezone: schedule.timezone, dailyCapBypass: schedule.dailyCapBypass };
  if (schedule.at === "now") return { ...base, local: null };
  const time = DateTime.fromISO(schedule.at, { setZone: true }).setZone(schedule.timezone);
  const local = time.isValid ? time.setLocale("en-US").toFormat("ccc, LLL d, yyyy, h:mm a ZZZZ") : null;
  return { ...base, local };
}
