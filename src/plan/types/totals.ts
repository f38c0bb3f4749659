/**
 * What a plan's sends add up to (see ../types.ts), overall and per organization. Types only;
 * re-exported by ../types.ts.
 */

import type { NamedRecord } from "./project.js";

/**
 * What some sends add up to. Invariants: `projects` counts the sending projects (`sends`), of which
 * `not_estimated` have no estimate (they could not be read) and add nothing to the sums;
 * `sms_segments` sums recipients x segments over SMS estimates, `mms_messages` the recipients of
 * MMS estimates (one message each); `recipients` and `estimated_cost_cents` sum every estimate.
 */
export interface SendTotals {
  readonly projects: number;
  readonly not_estimated: number;
  readonly recipients: number;
  readonly sms_segments: number;
  readonly mms_messages: number;
  readonly estimated_cost_cents: number;
}

/** The totals of one organization; `organization` is null for sending projects that could not be read. */
export interface OrganizationTotals extends SendTotals {
  readonly organization: NamedRecord | null;
}

/**
 * The totals of the plan's sends, overall and per organization. Invariant: `by_organization` has
 * one entry per organization of a read project (in the order the projects first name it, zeros
 * when none of its projects sends), then one with a null organization when an unread project
 * sends; its entries add up to `overall`.
 */
export interface PlanTotals {
  readonly overall: SendTotals;
  readonly by_organization: readonly OrganizationTotals[];
}
