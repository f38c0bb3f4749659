/**
 * How a project really ended, when that is not where this run's action left it: a schedule that
 * took effect and was then paused from the dashboard before the run's last read ends `paused`, and
 * the next plan blocks it (`plan.restart-not-supported`). The report must not say only "done":
 * the action's `status_after` is the status last read, and its resolution says what happened after.
 * Pure.
 */
import type { ActionResult } from "./types.js";

/**
 * `results` with each done action (not a pause) whose project was last seen `paused`, told as
 * such. `lastSeen` maps a project id to its status in the run's closing stats read (a project the
 * rows do not list is not in it: absence proves nothing).
 */
export function withEndedElsewhere(
  results: readonly ActionResult[],
  lastSeen: ReadonlyMap<string, string>,
): ActionResult[] {
  return results.map((r) => {
    if (r.status !== "done" && r.status !== "replayed") return r;
    if (r.kind === "pause" || lastSeen.get(r.project_id) !== "paused") return r;
    const note =
      "then the project was paused outside this run (from the dashboard, or by another key) before the run ended: it ended paused, " +
      "and restarting it is a dashboard step in this API version (the next plan blocks its schedule and says why: plan.restart-not-supported, or plan.guard-paused when a guard paused it)";
    return {
      ...r,
      status_after: "paused",
      resolution: r.resolution === null ? note : `${r.resolution}; ${note}`,
    };
  });
}

/** The projects a closing read should look at: those of done actions that are not pauses. */
export function projectsToConfirm(results: readonly ActionResult[]): Set<string> {
  return new Set(
    results
      .filter((r) => (r.status === "done" || r.status === "replayed") && r.kind !== "pause")
      .map((r) => r.project_id),
  );
}
