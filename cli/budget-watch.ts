/**
 * `watch`'s per-poll budget check (docs/policy.md#budgets): the period's spending read as `plan`
 * reads it (cli/budget-spend.ts), judged by src/watch/budget-alert.ts, which alerts once per budget
 * and period. Absent when the policy has no budgets.
 */
import type { Policy } from "../src/policy/model.js";
import { type BudgetAlerted, budgetAlerts } from "../src/watch/budget-alert.js";
import type { AlsoPolled } from "../src/watch/watch-loop.js";
import { readBudgetSpend } from "./budget-spend.js";
import type { Session } from "./session.js";

export function budgetWatch(
  session: Session,
  policy: Policy | null,
): (() => Promise<AlsoPolled>) | undefined {
  const budgets = policy?.rules.budgets ?? [];
  if (budgets.length === 0) return undefined;
  let alerted: BudgetAlerted = new Set();
  return async () => {
    const now = session.now();
    const spend = await readBudgetSpend(session, policy, now);
    if (spend === undefined) return { diagnostics: [], sending: 0 };
    const judged = budgetAlerts(budgets, spend, now, alerted);
    alerted = judged.alerted;
    return { diagnostics: judged.diagnostics, sending: 0 };
  };
}
