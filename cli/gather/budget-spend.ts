/**
 * The reads the policy's `budgets` add to a plan: for each budget, the statistics of its period
 * (`GET /projects/stats` from the period's first UTC day to today on the API's clock, every page,
 * with every key in use, each on its own, so each organization's rows come with its own key, and
 * a key's failure makes the spending of a budget it may cover unknown rather than short, and fails
 * nothing else), summed as
 * the actual cost of the rows of the organizations it covers. A project sending since before the
 * period began changed no status in it (a message sent does not move `updated_at`), so the period's
 * statistics do not list it, yet it spends in the period: the projects sending now (`status=active`
 * over the newest window, the 31 days to today: one listing shared by every budget) are added to
 * every period's rows, whole like every row (the figure errs high, never low). IO only; the judge
 * (src/plan/budget-hold.ts) decides what the figures mean. A failed read is carried as such:
 * the judge then holds the sends the budget covers.
 */
import type { ApiClient } from "../../src/api/index.js";
import { organizationKeyEnv } from "../../src/api/organization-keys.js";
import type { ProjectStatsRow } from "../../src/contract/resources.js";
import type { BudgetSpend } from "../../src/plan/budget-hold.js";
import { listStatsWindow } from "../../src/plan/refresh-stats.js";
import { type Budget, budgetCovers, periodOf } from "../../src/policy/budget-rule.js";
import type { Policy } from "../../src/policy/model.js";
import { statusRange } from "../../src/status/range.js";
import type { Session } from "./session.js";

/** `"4.0000"` -> 400 cents (rounded to the nearest cent). */
export function costCents(actualCost: string): number {
  const value = Number.parseFloat(actualCost);
  return Number.isFinite(value) ? Math.round(value * 100) : 0;
}

/** One listing of the statistics, every key in use on its own: the rows, and the keys whose read failed. */
interface Listing {
  readonly rows: readonly ProjectStatsRow[];
  readonly failed: readonly { readonly client: ApiClient; readonly message: string }[];
}

export async function readBudgetSpend(
  session: Session,
  policy: Policy | null,
  now: Date,
): Promise<BudgetSpend | undefined> {
  const budgets = policy?.rules.budgets ?? [];
  if (budgets.length === 0) return undefined;
  const clients = session.router.inUse();
  if (clients.length === 0) return budgets.map(() => ({ unreadable: "no key is in use" }));
  // One listing per period start (budgets of one period share it), and one of the sending projects.
  const listings = new Map<string, Promise<Listing>>();
  const listing = (startDate: string, endDate: string, status: "all" | "active" = "all") => {
    const key = `${startDate}/${endDate}/${status}`;
    let found = listings.get(key);
    if (found === undefined) {
      found = listEveryKey(clients, { startDate, endDate }, status);
      listings.set(key, found);
    }
    return found;
  };
  const newest = statusRange(now, undefined);
  if (!newest.ok) throw new Error(`statusRange without --since failed: ${newest.diagnostic.message}`);
  const window = newest.range.windows[0];
  if (window === undefined) throw new Error("statusRange without --since gave no window");
  // The keys that could not be used at all (routing's warning): no listing has their rows either.
  const unusable = (await session.router.identities.failures()).map((f) => ({
    client: f.client,
    message: f.error.message,
  }));
  const out: BudgetSpend[number][] = [];
  for (const budget of budgets) {
    const span = periodOf(budget.per, now);
    const listed = await listing(span.startDate, span.todayDate);
    const sending = await listing(window.startDate, window.endDate, "active");
    // A key whose read failed and that may see an organization the budget covers: not known.
    const failure = [...unusable, ...listed.failed, ...sending.failed].find((f) =>
      mayCover(session, budget, f.client),
    );
    if (failure !== undefined) {
      out.push({ unreadable: failure.message });
      continue;
    }
    const ids = new Set(listed.rows.map((r) => r.id));
    const rows = [...listed.rows, ...sending.rows.filter((r) => !ids.has(r.id))];
    const cents = rows
      .filter((r) => budgetCovers(budget, [r.organization_id, r.organization_name]))
      .reduce((sum, r) => sum + costCents(r.actual_cost), 0);
    out.push({ cents });
  }
  return out;
}

/**
 * Every page of one window with each key on its own, in parallel. Not through the session's merged
 * read: a key whose read failed there while another's succeeded is marked failed for routing, so its
 * organization, read whole by the plan, would be sent nothing for the rest of the run (no budget
 * read is read again in `apply`); the failure is this budget's alone (its spending unknown), and
 * another listing's failure (the plan's refresh) is not its own.
 */
async function listEveryKey(
  clients: readonly ApiClient[],
  window: { readonly startDate: string; readonly endDate: string },
  status: "all" | "active",
): Promise<Listing> {
  const rows = new Map<string, ProjectStatsRow>();
  const failed: { client: ApiClient; message: string }[] = [];
  await Promise.all(
    clients.map(async (client) => {
      const listed = await listStatsWindow(
        (params) => client.getProjectStats({ ...params, status }),
        window,
        (got) => {
          for (const r of got) if (!rows.has(r.id)) rows.set(r.id, r);
        },
      );
      if (!listed.ok) failed.push({ client, message: listed.error.message });
    }),
  );
  return { rows: [...rows.values()], failed };
}

/**
 * Whether the key of `client` may see an organization `budget` covers: always for a budget over
 * every organization; else when its listing (read earlier in the run) holds one; for a key whose
 * listing could not be read, when its variable is that of the budget's organization or of one above
 * it (what the other keys list tells), or when the budget's organization is not listed at all.
 */
function mayCover(session: Session, budget: Budget, client: ApiClient): boolean {
  if (budget.organization === undefined) return true;
  const listing = session.router.identities.listing(client);
  if (listing !== undefined) return listing.value.some((o) => budgetCovers(budget, [o.id, o.display_name]));
  const source = session.router.keys.sourceOf(client);
  const known = session.router.inUse().flatMap((c) => session.router.identities.listing(c)?.value ?? []);
  let org = known.find((o) => budgetCovers(budget, [o.id, o.display_name]));
  if (source === undefined || org === undefined) return true;
  for (let depth = 0; org !== undefined && depth < known.length; depth++) {
    if (organizationKeyEnv(org.display_name) === source) return true;
    const parent: string | null = org.parent_org_name;
    org = parent === null ? undefined : known.find((o) => o.display_name === parent);
  }
  return false;
}
