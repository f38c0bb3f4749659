/**
 * The email part of a plan and of an apply result: per list what its CSV holds (rows to send, rows
 * refused, batches) and per described campaign its judgement. Absent from every document when the
 * files describe no email, so texting-only runs print exactly what they printed before. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { EmailCampaignCheck } from "./campaign-check.js";
import type { ListCheck } from "./list-tally.js";
import type { ListSyncResult } from "./sync.js";

/**
 * One list in the plan. `state`: `sync` (rows will be upserted), `nothing` (no row to send),
 * `skipped` (email not available: 403 EMAIL_EARLY_ACCESS), `unreadable` (a file problem).
 */
export interface EmailListPlan extends ListCheck {
  readonly state: "sync" | "nothing" | "skipped" | "unreadable";
  /**
   * The CSV's sha256 (hex) as read for this plan; null when it could not be read. A saved plan
   * carries it, and `apply PLANFILE` refuses the plan when the CSV's bytes differ (saved-lists.ts).
   */
  readonly sha256: string | null;
}

/**
 * Invariant: `available` is false when the key's organizations have no email at all (every item is
 * then skipped), true when GET /email/campaigns answered, null when it could not be read.
 */
export interface EmailPlan {
  readonly available: boolean | null;
  readonly lists: readonly EmailListPlan[];
  readonly campaigns: readonly EmailCampaignCheck[];
  /** Problems of the email reads (not tied to one list or campaign). */
  readonly diagnostics: readonly Diagnostic[];
}

/** The email part of an apply result: the plan it rests on, and each list's sync. */
export interface EmailApplyResult {
  readonly plan: EmailPlan;
  readonly lists: readonly ListSyncResult[];
  /** The per-row result files written, by list address (paths relative to the working directory). */
  readonly results_files: Readonly<Record<string, string>>;
}

/** Every diagnostic of the email plan, lists first. */
export function emailPlanDiagnostics(plan: EmailPlan): Diagnostic[] {
  return [
    ...plan.diagnostics,
    ...plan.lists.flatMap((l) => l.diagnostics),
    ...plan.campaigns.flatMap((c) => c.diagnostics),
  ];
}

/** Whether the email plan needs a person: any error (refused rows, drift, blockers, unreadable). */
export function emailPlanBlocked(plan: EmailPlan): boolean {
  return emailPlanDiagnostics(plan).some((d) => d.severity === "error");
}

/** Whether apply's email part went through: no list failed, no row refused or rejected, no error. */
export function emailApplySucceeded(result: EmailApplyResult): boolean {
  return (
    !emailPlanBlocked(result.plan) &&
    result.lists.every((l) => l.state !== "failed" && l.refused === 0 && l.rejected === 0)
  );
}
