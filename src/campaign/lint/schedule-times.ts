/**
 * The instants a `schedule` block names, read with luxon once per distinct (`at`, `timezone`): a
 * campaign of 60,000 projects usually shares a handful of schedules (often through `defaults`), and
 * reading zoned times is the costliest step of lint. Pure: a memo of a pure function, bounded.
 */
import { DateTime } from "luxon";
import { memoize } from "../../message/memo.js";
import { DEFAULT_SEND_WINDOW, insideSendWindow } from "../../text/send-window.js";
import { FIXED_LOCALE, zoneNamed } from "../../text/zone-offsets.js";
import type { ScheduleSpec } from "../model.js";

/**
 * `at` as written (with its own offset), the same instant in the schedule's timezone, and whether
 * that local time is inside the default federal sending hours (judged here, once per distinct
 * schedule, not once per project: issue 36, 60,000 projects of one file).
 */
export interface ScheduleTimes {
  readonly at: DateTime;
  readonly local: DateTime;
  readonly insideDefaultWindow: boolean;
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
    if (!at.isValid) return undefined;
    const local = at.setZone(zoneNamed(schedule.timezone));
    return { at, local, insideDefaultWindow: insideSendWindow(DEFAULT_SEND_WINDOW, local) };
  },
  (schedule) => `${schedule.at}\u0000${schedule.timezone}`,
);
