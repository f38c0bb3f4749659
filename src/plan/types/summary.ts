/**
 * The counts of a plan (see ../types.ts): its summary over every item and finding, an organization's
 * section's counts, and the requests the plan made. Types only; re-exported by ../types.ts.
 */

import type { ItemCounts } from "../items.js";

/** Requests the plan made, by endpoint (route template such as `GET /projects/{id}`). */
export interface RequestCount {
  readonly total: number;
  readonly by_endpoint: Readonly<Record<string, number>>;
  /** What the naive refresh (one GET per project and per reference) would have made. */
  readonly naive: number;
}

/** The counts of some projects alone (an organization's section of a plan): actions and findings. */
export type ProjectsSummary = Pick<
  PlanSummary,
  "projects" | "planned" | "deferred" | "blocked" | "drifted" | "errors" | "warnings"
>;

/**
 * The counts of a plan: of every item and every finding it holds (summary.ts). Invariants:
 * `planned`, `deferred` and `blocked` count the projects' actions by status; the item counts count
 * the items of `email` and `replies` by verdict; `errors` and `warnings` count every diagnostic of
 * the plan (its own, each project's, and the email part's), so that what a view prints and what the
 * summary line and the exit code say can never disagree.
 */
export interface PlanSummary {
  readonly projects: number;
  readonly planned: number;
  readonly deferred: number;
  readonly blocked: number;
  readonly drifted: number;
  readonly email_lists: ItemCounts;
  readonly email_campaigns: ItemCounts;
  readonly reply_rule_sets: ItemCounts;
  readonly errors: number;
  readonly warnings: number;
}
