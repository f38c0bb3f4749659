/**
 * The counts of a plan (`PlanSummary`): every item and every finding it holds. Pure. Actions count
 * by status; `drifted` counts projects with at least one drift; the items of the email and replies
 * parts count by verdict; errors and warnings count the plan's, every project's and the email part's
 * diagnostics. The one place a plan is counted: the views print these numbers and the exit code is
 * derived from them (cli/commands/plan.ts `planOutcome`).
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import {
  countItems,
  type ItemCounts,
  type PlanEmail,
  planEmailDiagnostics,
  type ReplyRuleSetItem,
} from "./items.js";
import type { PlanSummary, ProjectPlan, ProjectsSummary } from "./types.js";

/** The plan's items besides its projects. */
export interface PlanItems {
  readonly email?: PlanEmail;
  readonly replies?: readonly ReplyRuleSetItem[];
}

export function summarize(
  projects: readonly ProjectPlan[],
  planDiagnostics: readonly Diagnostic[],
  items: PlanItems = {},
): PlanSummary {
  const actions = projects.flatMap((p) => p.actions);
  const diagnostics = [
    ...planDiagnostics,
    ...projects.flatMap((p) => p.diagnostics),
    ...(items.email === undefined ? [] : planEmailDiagnostics(items.email)),
  ];
  return {
    projects: projects.length,
    planned: actions.filter((a) => a.status === "planned").length,
    deferred: actions.filter((a) => a.status === "deferred").length,
    blocked: actions.filter((a) => a.status === "blocked").length,
    drifted: projects.filter((p) => p.drift.length > 0).length,
    email_lists: countItems(items.email?.lists ?? []),
    email_campaigns: countItems(items.email?.campaigns ?? []),
    reply_rule_sets: countItems(items.replies ?? []),
    errors: diagnostics.filter((d) => d.severity === "error").length,
    warnings: diagnostics.filter((d) => d.severity === "warning").length,
  };
}

/** The items one count holds, whatever their verdict. */
export function itemTotal(c: ItemCounts): number {
  return c.planned + c.ready + c.blocked + c.skipped;
}

/** Items to do (planned actions and planned items) and items that need a person (blocked). */
export function summaryTotals(s: PlanSummary): { readonly toDo: number; readonly blocked: number } {
  const items = [s.email_lists, s.email_campaigns, s.reply_rule_sets];
  return {
    toDo: s.planned + items.reduce((n, c) => n + c.planned, 0),
    blocked: s.blocked + items.reduce((n, c) => n + c.blocked, 0),
  };
}

/** The projects' part of a summary (an organization's section). */
export function projectsSummary(s: PlanSummary): ProjectsSummary {
  const { projects, planned, deferred, blocked, drifted, errors, warnings } = s;
  return { projects, planned, deferred, blocked, drifted, errors, warnings };
}

/** Item counts of a plan with no email and no reply rules (hand-built plans, tests). */
export const NO_ITEMS: Pick<PlanSummary, "email_lists" | "email_campaigns" | "reply_rule_sets"> = {
  email_lists: { planned: 0, ready: 0, blocked: 0, skipped: 0 },
  email_campaigns: { planned: 0, ready: 0, blocked: 0, skipped: 0 },
  reply_rule_sets: { planned: 0, ready: 0, blocked: 0, skipped: 0 },
};
