/**
 * A plan per organization (issue 26; see ../types.ts): each organization's section and its state.
 * Types only; re-exported by ../types.ts.
 */

import type { NamedRecord } from "./project.js";
import type { ProjectsSummary } from "./summary.js";

/**
 * What one organization's part of the plan comes to, worst first: `failed` a project of it could
 * not be read (its key refused, the project unreadable); `blocked` a project of it is drifted,
 * blocked or has an error (the others' go ahead all the same); `ready` it has actions to send;
 * `no-changes` nothing to do (deferred actions wait for approval).
 */
export type OrganizationPlanState = "failed" | "blocked" | "ready" | "no-changes";

/**
 * One organization's section. Invariants: `projects` are addresses in the plan's order, each in
 * exactly one section; `summary` counts those projects' actions and diagnostics only.
 */
export interface OrganizationPlan {
  /**
   * Null when the organization of the projects could not be told (unread, no `organization:`); the
   * file's `organization` as both id and name when no key could list it.
   */
  readonly organization: NamedRecord | null;
  readonly state: OrganizationPlanState;
  readonly projects: readonly string[];
  readonly summary: ProjectsSummary;
}
