/**
 * The instants a `schedule` block names, read with luxon once per distinct (`at`, `timezone`): a
 * campaign of 60,000 projects usually shares a handful of schedules (often through `defaults`), and
 * reading zoned times is the costliest step of lint. Pure: a memo of a pure function, bounded.
 */
import { DateTime } from "luxon";
import type { ScheduleSpec } from "../model.js";

/** `at` as written (with its own offset) and the same instant in the schedule's timezone. */
export interface ScheduleTimes {
  readonly at: DateTime;
  readonly local: DateTime;
}

/** Distinct schedules remembered; past it the memo starts again (memory stays bounded). */
const MAX_REMEMBERED = 4096;
const memo = new Map<string, ScheduleTimes | null>();

/** The times of `schedule`, or undefined for `now` or an unreadable `at` (the schema reports those). */
export function scheduleTimes(schedule: ScheduleSpec): ScheduleTimes | undefined {
  if (schedule.at === "now") return undefined;
  const key = `${schedule.at}\u0000${schedule.timezone}`;
  const known = memo.get(key);
  if (known !== undefined) return known ?? undefined;
  const at = DateTime.fromISO(schedule.at, { setZone: true });
  const times = at.isValid ? { at, local: at.setZone(schedule.timezone) } : null;
  if (memo.size >= MAX_REMEMBERED) memo.clear();
  memo.set(key, times);
  return times ?? undefined;
}
