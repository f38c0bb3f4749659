/**
 * The reads the policy's `budgets` add to a plan: for each budget, the statistics of its period
 * (`GET /projects/stats` from the period's first UTC day to today on the API's clock, every page,
 * through the session's routing, so each organization's rows come with its own key), summed as
 * the actual cost of the rows of the organizations it covers. IO only; the judge
 * (src/plan/budget-hold.ts) decides what the figures mean. A failed read is carried as such:
 * the judge then holds the sends the budget covers.
 */
import type { ProjectStatsRow } from "../../src/contract/resources.js";
import type { BudgetSpend } from "../../src/plan/budget-hold.js";
import { listStatsWindow } from "../../src/plan/refresh-stats.js";
import { budgetCovers, periodOf } from "../../src/policy/budget-rule.js";
import type { Policy } from "../../src/policy/model.js";
import type { Session } from "./session.js";

/** `"4.0000"` -> 400 cents (rounded to the nearest cent). */
export function costCents(actualCost: string): number {
  const value = Number.parseFloat(actualCost);
  return Number.isFinite(value) ? Math.round(value * 100) : 0;
}

export async function readBudgetSpend(
  session: Session,
  policy: Policy | null,
  now: Date,
): Promise<BudgetSpend | undefined> {
  const budgets = policy?.rules.budgets ?? [];
  if (budgets.length === 0) return undefined;
  // One listing per period start (budgets of one period share it).
  const listings = new Map<string, Promise<ProjectStatsRow[] | { readonly unreadable: string }>>();
  const listing = (startDate: string, endDate: string) => {
    const key = `${startDate}/${endDate}`;
    let found = listings.get(key);
    if (found === undefined) {
      found = (async () => {
        const rows = new Map<string, ProjectStatsRow>();
        const listed = await listStatsWindow(
          (params) => session.client.getProjectStats({ ...params, status: "all" }),
          { startDate, endDate },
          (got) => {
            for (const r of got) if (!rows.has(r.id)) rows.set(r.id, r);
          },
        );
        return listed.ok ? [...rows.values()] : { unreadable: listed.error.message };
      })();
      listings.set(key, found);
    }
    return found;
  };
  const out: BudgetSpend[number][] = [];
  for (const budget of budgets) {
    const span = periodOf(budget.per, now);
    const rows = await listing(span.startDate, span.todayDate);
    if (!Array.isArray(rows)) {
      out.push(rows);
      continue;
    }
    const cents = rows
      .filter((r) => budgetCovers(budget, [r.organization_id, r.organization_name]))
      .reduce((sum, r) => sum + costCents(r.actual_cost), 0);
    out.push({ cents });
  }
  return out;
}
