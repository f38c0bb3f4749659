/**
 * What `plan --out` says about approvals (issue 37 point 6): under the policy's `require_approvals`,
 * the saved plan's hash (which every signed approval names) and how to approve it; nothing when the
 * policy does not require approvals or nothing in the plan needs them. Pure.
 */
import type { Plan } from "../plan/types.js";
import { planSha256 } from "./plan-hash.js";
import { actionsNeedingApproval } from "./scope.js";

/** `document` is the saved plan's text as written to `file`. */
export function approvalsNote(plan: Plan, file: string, document: string): string {
  const rule = plan.policy?.rules.require_approvals;
  const actions = actionsNeedingApproval(plan, rule);
  if (rule === undefined || actions.length === 0) return "";
  const hash = planSha256(JSON.parse(document));
  const count = `${rule.count} approval${rule.count === 1 ? "" : "s"}`;
  const reviews =
    plan.commit === undefined
      ? ""
      : ` In GitHub Actions: approving reviews of the pull request at commit ${plan.commit.slice(0, 12)}.`;
  return `The saved plan ${file} has sha256 ${hash}. Under the policy's require_approvals, ${actions.map((a) => a.id).join(", ")} ${actions.length === 1 ? "needs" : "need"} ${count} by people other than its author before apply sends anything.${reviews} Elsewhere: its author runs \`campaignctl approve ${file} --author --key KEY\`, each approver \`campaignctl approve ${file} --key KEY\`.\n`;
}
