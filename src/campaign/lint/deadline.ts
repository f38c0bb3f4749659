/**
 * A `deadline` at or before the schedule's `at` can never be met: the send starts after it. A
 * warning (the forecast of `plan --forecast` says the rest). `at: now` is judged by the planner.
 */
import { type LintRule, NO_FINDINGS } from "./rule.js";
import { scheduleTimes } from "./schedule-times.js";

export const deadlineBeforeScheduleRule: LintRule = (project) => {
  const deadline = project.deadline;
  const schedule = project.schedule;
  if (deadline === undefined || schedule === undefined) return NO_FINDINGS;
  const at = scheduleTimes(schedule)?.at;
  const due = Date.parse(deadline);
  if (at === undefined || Number.isNaN(due) || due > at.toMillis()) return NO_FINDINGS;
  return [
    {
      severity: "warning",
      code: "forecast.deadline-before-schedule",
      message: `${project.address}: deadline ${deadline} is not after the schedule's at ${schedule.at}: the send starts after its deadline`,
      range: project.locate(["deadline"]),
      hint: "schedule the send earlier, or correct the deadline (an instant with its offset, e.g. polls close at 2026-11-03T20:00:00-08:00)",
    },
  ];
};
