/**
 * What `apply PLANFILE` says about a saved plan's approvals (issue 37 point 6): one error,
 * `apply.approvals-missing`, that names the schedules held, who approved, each approval that does
 * not count and why, who could still approve, and how many are missing; or, when there are enough,
 * one line naming the approvers. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Action } from "../plan/types.js";
import type { ApprovalsVerdict } from "./count.js";
import { shortHash } from "./plan-hash.js";

/**
 * When they are counted: before apply sends anything (a refusal then leaves everything unsent), or
 * read again during the run, just before a round sends what needs them (what went before stays).
 */
export type ApprovalsMoment = "before-sending" | "while-sending";

/** What the messages name besides the count. */
export interface ApprovalsContext {
  /** The saved plan as the user gave it, and its hash. */
  readonly planFile: string;
  readonly planSha256: string;
  /** Where the approvals were looked for: `pull request #12 of o/r`, `signature files in approvals/<hash>/`. */
  readonly from: string;
  /** The actions the approvals are for. Non-empty. */
  readonly actions: readonly Action[];
  /** People who could still approve: reviewers asked, allowed signers who have not. */
  readonly wanted: readonly string[];
  /** How to get an approval from this source. */
  readonly hint: string;
  readonly moment: ApprovalsMoment;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function names(verdict: ApprovalsVerdict): string {
  return verdict.approvers.length === 0
    ? "nobody"
    : verdict.approvers.map((a) => `${a.by.name} (${a.where})`).join(", ");
}

/** The refusal: not enough approvals, or none can count (`verdict.problems`). */
export function approvalsMissing(verdict: ApprovalsVerdict, context: ApprovalsContext): Diagnostic {
  const ids = context.actions.map((a) => a.id).join(", ");
  const counted = moment(context.moment, "it has", "read again just before sending them, it has");
  const parts = [
    `${context.planFile} (${shortHash(context.planSha256)}) needs ${plural(verdict.required, "approval")} by people other than its author before it sends ${ids}; ${counted} ${verdict.approvers.length} (${context.from})`,
    ...verdict.problems,
  ];
  if (verdict.approvers.length > 0) parts.push(`approved by ${names(verdict)}`);
  if (verdict.authors.length > 0) parts.push(`author: ${verdict.authors.map((a) => a.name).join(", ")}`);
  if (verdict.notCounted.length > 0)
    parts.push(`not counted: ${verdict.notCounted.map((n) => `${n.who} (${n.where}): ${n.why}`).join("; ")}`);
  const missing = Math.max(0, verdict.required - verdict.approvers.length);
  if (missing > 0)
    parts.push(
      `missing: ${plural(missing, "more approval")}${context.wanted.length === 0 ? "" : ` (could approve: ${context.wanted.join(", ")})`}`,
    );
  return {
    severity: "error",
    code: "apply.approvals-missing",
    message: parts.join("; "),
    hint: moment(
      context.moment,
      `${context.hint}; then apply ${context.planFile} again (nothing was sent)`,
      `these were not sent, and what went out before them stays; once approved again, apply ${context.planFile} again, or, if it is refused as changed since (its tests went out in this run), make the plan again and have that approved`,
    ),
  };
}

function moment(at: ApprovalsMoment, before: string, during: string): string {
  switch (at) {
    case "before-sending":
      return before;
    case "while-sending":
      return during;
  }
}

/** The line `apply` prints when there are enough. */
export function approvalsGranted(verdict: ApprovalsVerdict, context: ApprovalsContext): string {
  return `Approved: ${context.planFile} (${shortHash(context.planSha256)}) has ${verdict.approvers.length} of the ${plural(verdict.required, "approval")} its schedules need (${context.from}), by ${names(verdict)}; author: ${verdict.authors.map((a) => a.name).join(", ")}.\n`;
}
