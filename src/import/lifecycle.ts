/**
 * The lifecycle part of an imported project: the desired `state` that makes the plan do nothing for
 * the live status (design.md's transition table), the live schedule and the pause reason. Pure.
 *
 * | live status                    | state     |
 * |--------------------------------|-----------|
 * | draft                          | draft     |
 * | awaiting_test, ready           | tested    |
 * | scheduled, active, completed   | scheduled |
 * | paused                         | paused    |
 *
 * The live time is always written as it is, past or not: a project that already started or
 * finished keeps its reviewed time in the file (offline `validate` only warns about a past `at`,
 * and the plan sends nothing for a project already scheduled at that time). Writing `at: now`
 * instead would hide the time from the reviewer and fall foul of a `forbid_at_now` policy.
 */
import { DateTime } from "luxon";
import type { DesiredState } from "../campaign/model.js";
import { type ProjectStatus, SCHEDULE_TIMEZONES, type ScheduleTimezone } from "../contract/limits.js";
import type { Project } from "../contract/resources.js";

export function stateOf(status: ProjectStatus): DesiredState {
  switch (status) {
    case "draft":
      return "draft";
    case "awaiting_test":
    case "ready":
      return "tested";
    case "scheduled":
    case "active":
    case "completed":
      return "scheduled";
    case "paused":
      return "paused";
  }
}

/** A schedule block as import writes it. */
export interface ImportedSchedule {
  readonly at: string;
  readonly timezone: ScheduleTimezone;
  /** Absent when the live record does not show it (then it is not compared either). */
  readonly dailyCapBypass?: boolean;
}

function isTimezone(value: string | null): value is ScheduleTimezone {
  return value !== null && (SCHEDULE_TIMEZONES as readonly string[]).includes(value);
}

/**
 * The live schedule, or undefined when the project has none (or a timezone outside the six). `at`
 * is written in the schedule's own timezone with its offset (`2026-12-03T09:00:00-06:00`).
 */
export function scheduleOf(project: Project): ImportedSchedule | undefined {
  const tz = project.scheduled_timezone;
  if (project.scheduled_at === null || !isTimezone(tz)) return undefined;
  const when = DateTime.fromISO(project.scheduled_at, { setZone: true });
  if (!when.isValid) return undefined;
  const at = when.setZone(tz).toISO({ suppressMilliseconds: true }) ?? project.scheduled_at;
  const bypass = project.daily_cap_bypass === undefined ? {} : { dailyCapBypass: project.daily_cap_bypass };
  return { at, timezone: tz, ...bypass };
}

/** The pause reason of a paused project, when it has one the file format can hold (1 to 100 chars). */
export function pauseReasonOf(project: Project): string | undefined {
  const reason = project.pause_reason;
  if (project.status !== "paused" || reason === null || reason === undefined) return undefined;
  return reason.length >= 1 && reason.length <= 100 ? reason : undefined;
}
