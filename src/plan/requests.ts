/**
 * The exact requests of the three actions (contract: POST /projects/{id}/test, /schedule, /pause).
 * Pure: `now` is passed in.
 *
 * `at: now` is resolved when the plan is made: `scheduled_at` is the plan's `now`, written in the
 * schedule's timezone with its offset. So the plan document shows the exact body and the key is
 * derived from it; by the time apply sends it, that time is (slightly) past, and the API starts
 * sending at once, which is what `now` asks for. A deferred schedule has no key yet: the executor
 * may derive its body again (with its own `now`) when the action becomes sendable.
 */
import { DateTime } from "luxon";
import type { ProjectSpec, ScheduleSpec } from "../campaign/model.js";
import type { PauseRequest, ScheduleRequest, TestRequest } from "../contract/resources.js";
import type { ActionKind } from "./types.js";

/** The literal a file writes to send as soon as the project is scheduled. */
export const AT_NOW = "now";

export function actionPath(projectId: string, kind: ActionKind): string {
  return `/projects/${encodeURIComponent(projectId)}/${kind}`;
}

export function testBody(test: NonNullable<ProjectSpec["test"]>): TestRequest {
  return {
    test_contacts: test.contacts.map((c) =>
      c.mergeValues === undefined
        ? { phone: c.phone }
        : { phone: c.phone, merge_values: { ...c.mergeValues } },
    ),
  };
}

/** The `scheduled_at` to send: the file's time as written, or the plan's `now` for `at: now`. */
export function scheduledAt(schedule: ScheduleSpec, now: Date): string {
  if (schedule.at !== AT_NOW) return schedule.at;
  const at = DateTime.fromJSDate(now, { zone: schedule.timezone }).toISO({ suppressMilliseconds: true });
  if (at === null) throw new Error(`scheduledAt: cannot write ${now.toISOString()} in ${schedule.timezone}`);
  return at;
}

export function scheduleBody(schedule: ScheduleSpec, now: Date): ScheduleRequest {
  return {
    scheduled_at: scheduledAt(schedule, now),
    scheduled_timezone: schedule.timezone,
    daily_cap_bypass: schedule.dailyCapBypass,
  };
}

/** `{reason}` when the file gives one, else `{}` (the API then stores `manual`). */
export function pauseBody(pause: ProjectSpec["pause"]): PauseRequest {
  return pause?.reason === undefined ? {} : { reason: pause.reason };
}

/** The instant of an ISO date-time with offset, in ms; `undefined` when unreadable. */
export function instantOf(iso: string): number | undefined {
  const at = DateTime.fromISO(iso, { setZone: true });
  return at.isValid ? at.toMillis() : undefined;
}
