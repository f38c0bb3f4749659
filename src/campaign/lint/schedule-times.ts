/**
 * The instants a `schedule` block names, read with luxon once per distinct (`at`, `timezone`): a
 * campaign of 60,000 projects usually shares a handful of schedules (often through `defaults`), and
 * reading zoned times is the costliest step of lint. Pure: a memo of a pure function, bounded.
 */
import { DateTime } from "luxon";
import { memoize } from "../../message/memo.js";
import type { ScheduleSpec } from "../model.js";

/** `at` as written (with its own offset) and the same instant in the schedule's timezone. */
export interface ScheduleTimes {
  readonly at: DateTime;
  readonly local: DateTime;
}

/** The times of `schedule`, or undefined for `now` or an unreadable `at` (the schema reports those). */
export function scheduleTimes(schedule: ScheduleSpec): ScheduleTimes | undefined {
  return schedule.at === "now" ? undefined : timesOf(schedule);
}

/** Read once per distinct `at` and `timezone` (memo.ts). */
const timesOf = memoize(
  (schedule: ScheduleSpec): ScheduleTimes | undefined => {
    const at = DateTime.fromISO(schedule.at, { setZone: true });
    return at.isValid ? { at, local: at.setZone(schedule.timezone) } : undefined;
  },
  (schedule) => `${schedule.at}\u0000${schedule.timezone}`,
);
