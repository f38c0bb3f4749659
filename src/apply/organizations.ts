/**
 * The apply result per organization (issue 26, "one plan, one apply, one summary"): which
 * organizations are done, pending, blocked or failed, from the plan's organization sections and the
 * actions' results. Pure.
 */
import type { OrganizationPlan } from "../plan/organizations.js";
import type { NamedRecord } from "../plan/types.js";
import type { ActionResult, UnreadableProject } from "./types.js";

/**
 * What one organization's part of the run came to, worst first: `failed` an action failed, its
 * outcome is unknown, it was skipped after a failure, or a project could not be read; `blocked` an
 * action was blocked (nothing of it was sent); `interrupted` the run stopped before an action of it
 * started; `pending` deferred actions wait for approval; `done` every action is in effect.
 */
export type OrganizationApplyState = "failed" | "blocked" | "interrupted" | "pending" | "done";

/** Invariant: `projects` are the addresses of the organization's section of the plan. */
export interface OrganizationApply {
  readonly organization: NamedRecord | null;
  readonly state: OrganizationApplyState;
  readonly projects: readonly string[];
  readonly counts: {
    /** Done or replayed (in effect). */
    readonly done: number;
    readonly deferred: number;
    readonly blocked: number;
    /** Failed, unknown or skipped actions, and unreadable projects. */
    readonly failed: number;
    readonly not_started: number;
  };
}

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
