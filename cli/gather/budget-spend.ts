/**
 * The reads the policy's `budgets` add to a plan: for each budget, the statistics of its period
 * (`GET /projects/stats` from the period's first UTC day to today on the API's clock, every page,
 * through the session's routing, so each organization's rows come with its own key), summed as
 * the actual cost of the rows of the organizations it covers. A project sending since before the
 * period began changed no status in it (a message sent does not move `updated_at`), so the period's
 * statistics do not list it, yet it spends in the period: the projects sending now (`status=active`
 * over the newest window, the 31 days to today: one listing shared by every budget) are added to
 * every period's rows, whole like every row (the figure errs high, never low). IO only; the judge
 * (src/plan/budget-hold.ts) decides what the figures mean. A failed read is carried as such:
 * the judge then holds the sends the budget covers.
 */
import type { ProjectStatsRow } from "../../src/contract/resources.js";
import type { BudgetSpend } from "../../src/plan/budget-hold.js";
import { listStatsWindow } from "../../src/plan/refresh-stats.js";
import { budgetCovers, periodOf } from "../../src/policy/budget-rule.js";
import type { Policy } from "../../src/policy/model.js";
import { statusRange } from "../../src/status/range.js";
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
  // One listing per period start (budgets of one period share it), and one of the sending projects.
  const listings = new Map<string, Promise<ProjectStatsRow[] | { readonly unreadable: string }>>();
  const listing = (startDate: string, endDate: string, status: "all" | "active" = "all") => {
    const key = `${startDate}/${endDate}/${status}`;
    let found = listings.get(key);
    if (found === undefined) {
      found = (async () => {
        const rows = new Map<string, ProjectStatsRow>();
        const listed = await listStatsWindow(
          (params) => session.client.getProjectStats({ ...params, status }),
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
  const newest = statusRange(now, undefined);
  if (!newest.ok) throw new Error(`statusRange without --since failed: ${newest.diagnostic.message}`);
  const window = newest.range.windows[0];
  if (window === undefined) throw new Error("statusRange without --since gave no window");
  const out: BudgetSpend[number][] = [];
  for (const budget of budgets) {
    const span = periodOf(budget.per, now);
    const listed = await listing(span.startDate, span.todayDate);
    const sending = await listing(window.startDate, window.endDate, "active");
    if (!Array.isArray(listed) || !Array.isArray(sending)) {
      out.push(Array.isArray(listed) ? (sending as { readonly unreadable: string }) : listed);
      continue;
    }
    const ids = new Set(listed.map((r) => r.id));
    const rows = [...listed, ...sending.filter((r) => !ids.has(r.id))];
    const cents = rows
      .filter((r) => budgetCovers(budget, [r.organization_id, r.organization_name]))
      .reduce((sum, r) => sum + costCents(r.actual_cost), 0);
    out.push({ cents });
  }
  return out;
}
