/**
 * The instants a `schedule` block names, read with luxon once per distinct (`at`, `timezone`): a
 * campaign of 60,000 projects usually shares a handful of schedules (often through `defaults`), and
 * reading zoned times is the costliest step of lint. Pure: a memo of a pure function, bounded.
 */
import { DateTime } from "luxon";
import { memoize } from "../../message/memo.js";
import { FIXED_LOCALE, zoneNamed } from "../../text/zone-offsets.js";
import type { ScheduleSpec } from "../model.js";

/** `at` as written (with its own offset) and the same instant in the schedule's timezone. */
export interface ScheduleTimes {
  readonly at: DateTime;
  readonly local: DateTime;
}

/** The times of `schedule`, or undefined for `now` or an unreadable `at` (the schema reports those). */
export function scheduleTimes(schedule: ScheduleSpec): ScheduleTimes | undefined {
  if (schedule.at === "now") return undefined;
  // Four rules and the rule across projects read each project's schedule: its key is built once.
  const known = bySchedule.get(schedule);
  if (known !== undefined) return known ?? undefined;
  const times = timesOf(schedule);
  bySchedule.set(schedule, times ?? null);
  return times;
}

/** The times of each schedule object read (null: unreadable); schedules are never changed. */
const bySchedule = new WeakMap<ScheduleSpec, ScheduleTimes | null>();

/** Read once per distinct `at` and `timezone` (memo.ts). */
const timesOf = memoize(
  (schedule: ScheduleSpec): ScheduleTimes | undefined => {
    // The table's zone where it answers (no Intl: text/zone-offsets.ts); the same offsets as luxon's.
    const at = DateTime.fromISO(schedule.at, { setZone: true, ...FIXED_LOCALE });
    return at.isValid ? { at, local: at.setZone(zoneNamed(schedule.timezone)) } : undefined;
  },
  (schedule) => `${schedule.at}\u0000${schedule.timezone}`,
);
