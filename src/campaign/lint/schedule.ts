/**
 * Rules about the `schedule` block: a send time in the past, a send time in quiet hours, and the
 * daily cap bypass. Times are read with luxon; the clock is `context.now`.
 */
import { DateTime } from "luxon";
import type { ProjectSpec, ScheduleSpec } from "../model.js";
import type { LintRule } from "./rule.js";

/** The local window in which sending is allowed, inclusive (TCPA: 8 a.m. to 9 p.m. local time). */
export const QUIET_HOURS_END = { hour: 8, minute: 0 } as const;
export const QUIET_HOURS_START = { hour: 21, minute: 0 } as const;

/** The schedule's send time, or `undefined` for `now` or an unreadable value (the schema reports those). */
function sendTime(schedule: ScheduleSpec): DateTime | undefined {
  if (schedule.at === "now") return undefined;
  const at = DateTime.fromISO(schedule.at, { setZone: true });
  return at.isValid ? at : undefined;
}

/**
 * A past `at` on a project meant to be scheduled would make the API send at once (the contract
 * accepts `scheduled_at` in the past). Only checked when the desired state is `scheduled`: in other
 * states the block is not sent.
 */
export const schedulePastRule: LintRule = (project, context) => {
  const schedule = project.schedule;
  if (schedule === undefined || project.state !== "scheduled") return [];
  const at = sendTime(schedule);
  if (at === undefined || at.toMillis() >= context.now.getTime()) return [];
  return [
    {
      severity: "error",
      code: "lint.schedule-in-past",
      message: `${project.address}: schedule at ${schedule.at} is in the past, so the project would send at once`,
      range: project.locate(["schedule", "at"]),
      hint: "set a future time, or write `at: now` to send as soon as it is scheduled",
    },
  ];
};

export const quietHoursRule: LintRule = (project) => {
  const schedule = project.schedule;
  if (schedule === undefined) return [];
  const at = sendTime(schedule);
  if (at === undefined) return [];
  const local = at.setZone(schedule.timezone);
  // Compare the local time of day; reading the fields of the zoned time costs no further zone
  // lookups (each `set` on a zoned DateTime would), which matters for campaigns of 10,000 projects.
  const ms = (t: { hour: number; minute: number }) => (t.hour * 60 + t.minute) * 60_000;
  const timeOfDay = ms(local) + local.second * 1000 + local.millisecond;
  if (timeOfDay >= ms(QUIET_HOURS_END) && timeOfDay <= ms(QUIET_HOURS_START)) return [];
  return [
    {
      severity: "warning",
      code: "lint.quiet-hours",
      message: `${project.address}: sends at ${local.toFormat("HH:mm")} ${schedule.timezone} local time, outside 08:00-21:00`,
      range: project.locate(["schedule", "at"]),
      hint: "TCPA quiet hours forbid texts before 8 a.m. and after 9 p.m. local time, and some states are stricter; contacts in other timezones may be earlier or later still",
    },
  ];
};

export const dailyCapBypassRule: LintRule = (project: ProjectSpec) => {
  if (project.schedule?.dailyCapBypass !== true) return [];
  return [
    {
      severity: "warning",
      code: "lint.daily-cap-bypass",
      message: `${project.address}: daily_cap_bypass runs past the brand's daily carrier cap; messages over the cap may fail and are still billed`,
      range: project.locate(["schedule", "daily_cap_bypass"]),
      hint: "remove daily_cap_bypass to let the project pause at the cap and be started again the next Pacific day",
    },
  ];
};
