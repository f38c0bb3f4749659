/**
 * Rules about the `schedule` block: a send time in the past, a send time in quiet hours, and the
 * daily cap bypass, and an offset that is not the timezone's. Times are read with luxon (once per
 * distinct schedule, schedule-times.ts); the clock is `context.now`.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import {
  judgeSend,
  localText,
  placesOfList,
  type StartsThatFit,
  sendPlaces,
  sendRules,
  startsThatFit,
  startText,
} from "../../jurisdictions/index.js";
import { memoize } from "../../message/memo.js";
import { DEFAULT_SEND_WINDOW, localClock, windowText } from "../../text/send-window.js";
import type { ProjectSpec } from "../model.js";
import { type LintContext, type LintRule, NO_FINDINGS } from "./rule.js";
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
  if (schedule === undefined || project.state !== "scheduled" || context.now === null) return NO_FINDINGS;
  const at = scheduleTimes(schedule)?.at;
  if (at === undefined || at.toMillis() >= context.now.getTime()) return NO_FINDINGS;
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
 * A send that starts in the federal quiet hours: outside 08:00-21:00 (half-open: 21:00 itself is
 * quiet) in a zone its recipients live in: the schedule's zone, or, when the policy declares where
 * its contact lists' recipients live (`context.places`), every zone of those places (the schedule's
 * too for a list not declared). One implementation with the policy and the forecast
 * (src/jurisdictions/send-rules.ts); the policy's own `send_window` and state rules are the
 * policy's to judge (`policy.send-window`, `policy.jurisdictions`), the whole send the forecast's.
 */
export const quietHoursRule: LintRule = (project, context) => {
  const schedule = project.schedule;
  if (schedule === undefined) return NO_FINDINGS;
  const times = scheduleTimes(schedule);
  if (times === undefined) return NO_FINDINGS;
  const zones = recipientZones(project, context);
  // The zoned time's fields are read, not set: no further zone lookups for 10,000 projects.
  if (zones === undefined) {
    if (times.insideDefaultWindow) return NO_FINDINGS;
    return [quietHours(project, `${localClock(times.local)} ${schedule.timezone} local time`, [])];
  }
  const judged = judgeStart({ atMs: times.at.toMillis(), zones, scheduleZone: schedule.timezone });
  const first = judged.breaches[0];
  if (first === undefined) return NO_FINDINGS;
  const others = judged.breaches.slice(1).map((b) => b.zone);
  return [
    quietHours(
      project,
      `${localText(first.fromMs, first.zone)} in ${first.zone}${first.zone === schedule.timezone ? "" : " (where recipients of its lists live: the policy's places)"}`,
      others,
      judged.fits,
    ),
  ];
};

/**
 * The start instant judged by the federal hours in `zones`, and the starts of its day that fit:
 * once per distinct start and zones (a campaign of thousands of projects shares a few of each).
 */
const judgeStart = memoize(
  (input: { readonly atMs: number; readonly zones: readonly string[]; readonly scheduleZone: string }) => {
    const rules = sendRules({ zones: input.zones });
    return {
      breaches: judgeSend(rules, input.atMs, input.atMs).breaches,
      fits: startsThatFit(rules, input.atMs, 0, input.scheduleZone),
    };
  },
  (input) => `${input.atMs}|${input.scheduleZone}|${input.zones.join(",")}`,
);

/** The zones a project's recipients live in by the policy's places; undefined when none is declared. */
function recipientZones(project: ProjectSpec, context: LintContext): readonly string[] | undefined {
  const declared = context.places ?? [];
  const schedule = project.schedule;
  if (declared.length === 0 || schedule === undefined || project.organization === undefined) return undefined;
  const organization = [project.organization];
  const lists = (project.contactLists ?? []).map((l) => placesOfList(declared, organization, [l]));
  return lists.some((l) => l !== null) ? sendPlaces(lists, schedule.timezone).zones : undefined;
}

function quietHours(
  project: ProjectSpec,
  when: string,
  otherZones: readonly string[],
  fits?: StartsThatFit | null,
): Diagnostic {
  const zone = project.schedule?.timezone ?? "";
  const starts =
    fits === undefined || fits === null
      ? ""
      : `; in every zone of its recipients, a start between ${startText(fits.earliestMs, zone).clock} and ${startText(fits.latestMs, zone).clock} that day is inside`;
  return {
    severity: "warning",
    code: "lint.quiet-hours",
    message: `${project.address}: sends at ${when}, outside ${windowText(DEFAULT_SEND_WINDOW)} (${DEFAULT_SEND_WINDOW.to} itself is quiet)${otherZones.length === 0 ? "" : `; also outside it in ${otherZones.join(", ")}`}`,
    range: project.locate(["schedule", "at"]),
    hint:
      fits === undefined
        ? "TCPA quiet hours forbid texts before 8 a.m. and from 9 p.m. local time (send by 20:59), and some states are stricter; contacts in other timezones may be earlier or later still: declare where each list's recipients live (the policy's places, docs/places.md)"
        : `TCPA quiet hours forbid texts before 8 a.m. and from 9 p.m. local time (send by 20:59), and some states are stricter (the policy's jurisdictions, docs/places.md)${starts}`,
  };
}

/**
 * The offset written in `at` must be the timezone's offset at that instant: `-05:00` with
 * America/Chicago in December (when Chicago is at -06:00) sends an hour earlier than it reads, and
 * usually means the offset was copied from a summer date.
 */
export const scheduleOffsetRule: LintRule = (project) => {
  const schedule = project.schedule;
  if (schedule === undefined) return NO_FINDINGS;
  const times = scheduleTimes(schedule);
  if (times === undefined) return NO_FINDINGS;
  const { at, local } = times;
  if (!local.isValid || local.offset === at.offset) return NO_FINDINGS;
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
  if (project.schedule?.dailyCapBypass !== true) return NO_FINDINGS;
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
