/**
 * `watch`'s alert on the policy's `budgets` (issue 37 point 5): on each poll, what each budget's
 * period has actually spent (the statistics' actual cost, read as `plan` reads it); the first poll
 * that finds it over the cap says so, once per budget and period (`watch.budget-crossed`, a
 * warning: spending already made cannot be taken back, and the sends under way are the guards'
 * and the people's to stop). A new period alerts again. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { BudgetSpend } from "../plan/budget-hold.js";
import { type Budget, budgetName, periodOf, periodText, usd } from "../policy/budget-rule.js";

/** Budgets already alerted, by index and period start (`0@2026-12-01`). */
export type BudgetAlerted = ReadonlySet<string>;

export function budgetAlerts(
  budgets: readonly Budget[],
  spend: BudgetSpend,
  now: Date,
  alerted: BudgetAlerted,
): { readonly diagnostics: readonly Diagnostic[]; readonly alerted: BudgetAlerted } {
  const next = new Set(alerted);
  const diagnostics: Diagnostic[] = [];
  budgets.forEach((budget, i) => {
    const spent = spend[i];
    const span = periodOf(budget.per, now);
    if (spent === undefined) return;
    if ("unreadable" in spent) {
      diagnostics.push({
        severity: "warning",
        code: "watch.poll-failed",
        message: `what the budget ${JSON.stringify(budgetName(budget))} spent ${periodText(budget.per, span)} could not be read (${spent.unreadable}): it is not judged this poll`,
        hint: "watch reads it again at the next poll",
      });
      return;
    }
    const key = `${i}@${span.startDate}`;
    const cap = Math.round(budget.usd * 100);
    if (spent.cents <= cap || next.has(key)) return;
    next.add(key);
    diagnostics.push({
      severity: "warning",
      code: "watch.budget-crossed",
      message: `the budget ${JSON.stringify(budgetName(budget))} is crossed: spent ${usd(spent.cents)} ${periodText(budget.per, span)}, over its ${usd(cap)} by ${usd(spent.cents - cap)}`,
      hint: "plan and apply now hold every send this budget covers until the period ends; pause what is still sending if it must stop (campaignctl apply with state: paused)",
    });
  });
  return { diagnostics, alerted: next };
}
