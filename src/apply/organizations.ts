/**
 * The apply result per organization (issue 26, "one plan, one apply, one summary"): which
 * organizations are done, pending, blocked or failed, from the plan's organization sections and the
 * actions' results. Pure.
 */
import type { OrganizationPlan } from "../plan/types.js";
import type { ActionResult, OrganizationApply, OrganizationApplyState, UnreadableProject } from "./types.js";

export function organizationResults(
  sections: readonly OrganizationPlan[],
  actions: readonly ActionResult[],
  unreadable: readonly UnreadableProject[],
): OrganizationApply[] {
  return sections.map((section) => {
    const mine = new Set(section.projects);
    const own = actions.filter((a) => mine.has(a.address));
    const count = (...statuses: ActionResult["status"][]) =>
      own.filter((a) => statuses.includes(a.status)).length;
    const counts = {
      done: count("done", "replayed"),
      deferred: count("deferred"),
      blocked: count("blocked"),
      failed: count("failed", "unknown", "skipped") + unreadable.filter((u) => mine.has(u.address)).length,
      not_started: count("not-started"),
    };
    const state: OrganizationApplyState =
      counts.failed > 0
        ? "failed"
        : counts.blocked > 0
          ? "blocked"
          : counts.not_started > 0
            ? "interrupted"
            : counts.deferred > 0
              ? "pending"
              : "done";
    return { organization: section.organization, state, projects: section.projects, counts };
  });
}

/** Some organizations done (or pending) and others blocked or failed: the run's exit code 4. */
export function partlyApplied(organizations: readonly OrganizationApply[] | undefined): boolean {
  if (organizations === undefined) return false;
  const good = organizations.some((o) => o.state === "done" || o.state === "pending");
  const bad = organizations.some((o) => o.state === "failed" || o.state === "blocked");
  return good && bad;
}
