/**
 * Whether a scheduled (or active) project already carries the file's schedule. Pure. Times compare
 * as instants (`2026-11-03T15:00:00Z` equals `2026-11-03T10:00:00-05:00`); `at: now` matches any
 * time already scheduled. The contract's project read does not show `daily_cap_bypass`: when the
 * live record lacks it, it is not compared (and the plan says so).
 */
import type { ScheduleSpec } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import { AT_NOW, instantOf } from "./requests.js";

export interface ScheduleMatch {
  /** One phrase per differing member, e.g. `scheduled_at is ... on the live project, the file says ...`. */
  readonly differences: readonly string[];
  /** True when the live record does not show `daily_cap_bypass`. */
  readonly bypassUnknown: boolean;
}

export function scheduleMatches(given: ScheduleSpec, project: Project): ScheduleMatch {
  const differences: string[] = [];
  if (given.at !== AT_NOW) {
    const live = project.scheduled_at === null ? undefined : instantOf(project.scheduled_at);
    if (live === undefined || live !== instantOf(given.at))
      differences.push(
        `scheduled_at is ${project.scheduled_at ?? "(none)"} on the live project, the file says ${given.at}`,
      );
  }
  if (project.scheduled_timezone !== given.timezone)
    differences.push(
      `scheduled_timezone is ${project.scheduled_timezone ?? "(none)"} on the live project, the file says ${given.timezone}`,
    );
  const bypassUnknown = project.daily_cap_bypass === undefined;
  if (!bypassUnknown && project.daily_cap_bypass !== given.dailyCapBypass)
    differences.push(
      `daily_cap_bypass is ${String(project.daily_cap_bypass)} on the live project, the file says ${String(given.dailyCapBypass)}`,
    );
  return { differences, bypassUnknown };
}
