/**
 * Rules about the `schedule` block: a send time in the past, a send time in quiet hours, and the
 * daily cap bypass, and an offset that is not the timezone's. Times are read with luxon (once per
 * distinct schedule, schedule-times.ts); the clock is `context.now`.
 */
import type { ProjectSpec } from "../model.js";
import type { LintRule } from "./rule.js";
import { scheduleTimes } from "./schedule-times.js";

/** The local window in which sending is allowed, inclusive (TCPA: 8 a.m. to 9 p.m. local time). */
export const QUIET_HOURS_END = { hour: 8, minute: 0 } as const;
export const QUIET_HOURS_START = { hour: 21, minute: 0 } as const;

/**
 * A past `at` on a project meant to be scheduled would make the API send at once (the contract
 * accepts `scheduled_at` in the past). Only checked when the desired state is `scheduled`: in other
 * states the block is not sent. A warning, judged by `context.now` (offline `validate`: the system
 * clock): the file of a campaign that already went out keeps its past `at`, and only the API's clock
 * is authoritative; `plan` turns a past schedule that would be sent into the error
 * `plan.schedule-in-past`, judged by the API's clock. Skipped without a clock.
 */
export const schedulePastRule: LintRule = (project, context) => {
  const schedule = project.schedule;
  if (schedule === undefined || project.state !== "scheduled" || context.now === null) return [];
  const at = scheduleTimes(schedule)?.at;
  if (at === undefined || at.toMillis() >= context.now.getTime()) return [];
  const clock = context.clock ?? "the system clock";
  return [
    {
      severity: "warning",
      code: "lint.schedule-in-past",
      message: `${project.address}: schedule at ${schedule.at} is in the past by ${clock} (${context.now.toISOString()}); plan judges it against the API's clock, and a project still to be scheduled would send at once`,
      range: project.locate(["schedule", "at"]),
      hint: "set a future time, or write `at: now` to send as soon as it is scheduled; a project that was already scheduled keeps its time",
    },
  ];
};

export const quietHoursRule: LintRule = (project) => {
  const schedule = project.schedule;
  if (schedule === undefined) return [];
  const local = scheduleTimes(schedule)?.local;
  if (local === undefined) return [];
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

/**
 * The offset written in `at` must be the timezone's offset at that instant: `-05:00` with
 * America/Chicago in December (when Chicago is at -06:00) sends an hour earlier than it reads, and
 * usually means the offset was copied from a summer date.
 */
export const scheduleOffsetRule: LintRule = (project) => {
  const schedule = project.schedule;
  if (schedule === undefined) return [];
  const times = scheduleTimes(schedule);
  if (times === undefined) return [];
  const { at, local } = times;
  if (!local.isValid || local.offset === at.offset) return [];
  const zoneOffset = local.toFormat("ZZ");
  return [
    {
      severity: "warning",
      code: "lint.schedule-offset-mismatch",
      message: `${project.address}: schedule at ${schedule.at} has offset ${at.toFormat("ZZ")}, but ${schedule.timezone} is at ${zoneOffset} on ${local.toFormat("yyyy-MM-dd")}: it sends at ${local.toFormat("HH:mm")} local time, not ${at.toFormat("HH:mm")}`,
      range: project.locate(["schedule", "at"]),
      hint: `write the offset of that date: "${at.setZone(schedule.timezone, { keepLocalTime: true }).toISO({ suppressMilliseconds: true })}" keeps ${at.toFormat("HH:mm")} local time`,
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
