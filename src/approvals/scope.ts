/**
 * Which actions of a plan need approvals under the policy's `require_approvals` (issue 37 point 6):
 * the schedules that may go out (planned, or deferred until their test is approved; a blocked one
 * never goes out), every one of them or only those that bypass the daily cap, as the rule says.
 * Tests reach the test contacts only and pauses stop a send: neither ever needs an approval. Pure.
 */
import type { Action, Plan } from "../plan/types.js";
import { type ApprovalsRule, approvalsScope } from "../policy/approvals-rule.js";

export function needsApproval(action: Action, rule: ApprovalsRule): boolean {
  if (action.kind !== "schedule" || action.status === "blocked") return false;
  switch (approvalsScope(rule)) {
    case "schedules":
      return true;
    case "daily_cap_bypass":
      return bypassesCap(action);
  }
}

/** The actions of `plan` that need approvals, in plan order; none without the rule. */
export function actionsNeedingApproval(plan: Plan, rule: ApprovalsRule | undefined): readonly Action[] {
  if (rule === undefined) return [];
  return plan.projects.flatMap((p) => p.actions).filter((a) => needsApproval(a, rule));
}

function bypassesCap(action: Action): boolean {
  const body = action.request.body;
  return (
    typeof body === "object" && body !== null && (body as Record<string, unknown>).daily_cap_bypass === true
  );
}
