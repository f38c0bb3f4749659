/**
 * Rules about the `schedule` block: a send time in the past, a send time in quiet hours, and the
 * daily cap bypass, and an offset that is not the timezone's. Times are read with luxon (once per
 * distinct schedule, schedule-times.ts); the clock is `context.now`.
 */
import { DEFAULT_SEND_WINDOW, insideSendWindow, localClock, windowText } from "../../text/send-window.js";
import type { ProjectSpec } from "../model.js";
import type { LintRule } from "./rule.js";
import { scheduleTimes } from "./schedule-times.js";

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

/**
 * A send that starts in TCPA quiet hours: outside `DEFAULT_SEND_WINDOW`, 08:00-21:00 in the schedule's
 * zone, half-open (21:00 itself is quiet; src/text/send-window.ts holds the one boundary rule). A
 * policy's own `send_window` is judged by the policy (`policy.send-window`), with the same rule.
 */
export const quietHoursRule: LintRule = (project) => {
  const schedule = project.schedule;
  if (schedule === undefined) return [];
  const local = scheduleTimes(schedule)?.local;
  if (local === undefined) return [];
  // The zoned time's fields are read, not set: no further zone lookups for 10,000 projects.
  if (insideSendWindow(DEFAULT_SEND_WINDOW, local)) return [];
  return [
    {
      severity: "warning",
      code: "lint.quiet-hours",
      message: `${project.address}: sends at ${localClock(local)} ${schedule.timezone} local time, outside ${windowText(DEFAULT_SEND_WINDOW)} (${DEFAULT_SEND_WINDOW.to} itself is quiet)`,
      range: project.locate(["schedule", "at"]),
      hint: "TCPA quiet hours forbid texts before 8 a.m. and from 9 p.m. local time (send by 20:59), and some states are stricter; contacts in other timezones may be earlier or later still",
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
