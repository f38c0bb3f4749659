/**
 * The policy's `budgets` in a plan (issue 37 point 5): for each cap, what the period has already
 * spent (the actual cost of the statistics' rows of its organizations in the period, read by the
 * caller with each organization's key), what is already scheduled live and not yet sent (each
 * such project's live estimate), and the live estimate of every send the plan would make, in the
 * plan's order. A send that would take the total past the cap is held (`policy.budget`, at its
 * `schedule`, naming the budget, the spent, the planned and the left) with what is ordered after
 * it; a later, smaller send may still fit. A budget whose spending could not be read, and a send
 * whose estimate is unknown, hold the sends they cover: a cap that cannot be judged is never taken
 * as a pass. Tests (they reach the test contacts only) and pauses are never held. Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type Budget, budgetCovers, budgetName, periodOf, periodText, usd } from "../policy/budget-rule.js";
import type { Policy } from "../policy/model.js";
import type { LiveRead } from "./live.js";
import { holdForPolicy } from "./policy-hold.js";
import type { BudgetFigures, ProjectPlan } from "./types.js";

/**
 * What each budget's period has spent, in the order of the policy's `budgets`: cents, or why it
 * could not be read. Invariant: one entry per budget.
 */
export type BudgetSpend = readonly ({ readonly cents: number } | { readonly unreadable: string })[];

/** The organization names and ids of a judged project (its live audience's). */
function organizationOf(project: ProjectPlan): string[] {
  const o = project.audience?.organization;
  return o === undefined ? [] : [o.id, ...(o.name === null ? [] : [o.name])];
}

const sendsIn = (project: ProjectPlan) =>
  project.actions.some((a) => a.kind === "schedule" && a.status !== "blocked");

/**
 * One budget judged over the plan's sends in order (`budgetLedgers`): the figures the plan shows,
 * and for each send it covers what the sends before it planned, so that one project is judged
 * alone (apply's re-check right before a send) exactly as within the whole plan (`budgetHolds`).
 */
export interface BudgetLedger {
  readonly budget: Budget;
  readonly figures: BudgetFigures;
  /** The cents the covered sends before each covered address planned (not held), by address. */
  readonly plannedBefore: ReadonlyMap<string, number>;
  readonly spent: BudgetSpend[number] | undefined;
  readonly now: Date;
}

/**
 * The budgets over `whole` (the plan of every project of the files, in order: a project judged
 * alone cannot escape a cap the sends before it fill). Empty without budgets.
 */
export function budgetLedgers(
  whole: readonly ProjectPlan[],
  policy: Policy | null,
  spend: BudgetSpend | undefined,
  reads: ReadonlyMap<string, LiveRead<Project>>,
  now: Date,
): readonly BudgetLedger[] {
  return (policy?.rules.budgets ?? []).map((budget, i) => ledgerOf(budget, spend?.[i], whole, reads, now));
}

/** The budgets' findings on `project` (judged after the files' other rules): each one holds its schedule. */
export function budgetHolds(
  project: ProjectPlan,
  ledgers: readonly BudgetLedger[],
  policy: Policy | null,
  spec: ProjectSpec | undefined,
): ProjectPlan {
  if (policy === null || ledgers.length === 0) return project;
  const findings: Diagnostic[] = [];
  for (const ledger of ledgers) {
    const before = ledger.plannedBefore.get(project.address);
    if (before === undefined) continue;
    const message = overBudget(ledger, project, before);
    if (message === undefined) continue;
    const range = policy.ranges.budgets;
    findings.push({
      severity: "error",
      code: "policy.budget",
      message: `${project.address}: ${message}`,
      ...(spec === undefined ? {} : { range: spec.locate(["schedule"]) }),
      hint: "send fewer (narrow the lists, shorten the message), wait for the next period, or raise the budget in the policy",
      ...(range === undefined ? {} : { related: [{ message: "the policy's rule budgets", range }] }),
    });
  }
  return holdForPolicy(project, findings, true);
}

/** Why `project`'s send crosses the ledger's budget after `planned` cents of sends before it; undefined when it fits. */
function overBudget(ledger: BudgetLedger, project: ProjectPlan, planned: number): string | undefined {
  const { budget, spent, figures } = ledger;
  const span = periodOf(budget.per, ledger.now);
  const name = JSON.stringify(budgetName(budget));
  if (spent === undefined || "unreadable" in spent) {
    const why = spent === undefined ? "not read" : spent.unreadable;
    return `the budget ${name} cannot be judged: what was spent ${periodText(budget.per, span)} could not be read (${why}); a cap that cannot be judged holds the send`;
  }
  const cost = project.estimate?.estimated_cost_cents ?? null;
  if (cost === null) return `the send's estimate is unknown, so the budget ${name} cannot be judged for it`;
  const scheduled = figures.scheduled_cents;
  const before = spent.cents + scheduled + planned;
  const cap = figures.cap_cents;
  if (before + cost <= cap) return undefined;
  const left = Math.max(0, cap - before);
  return `the send (estimated ${usd(cost)}) would cross the budget ${name}: spent ${usd(spent.cents)} ${periodText(budget.per, span)}${scheduled > 0 ? `, ${usd(scheduled)} scheduled and not yet sent` : ""}, planned ${usd(planned + cost)} (this send${planned > 0 ? ` and ${usd(planned)} of sends before it in this plan` : ""}), left ${usd(left)} of ${usd(cap)}`;
}

/** One budget over the plan's sends, in order. */
function ledgerOf(
  budget: Budget,
  spent: BudgetSpend[number] | undefined,
  projects: readonly ProjectPlan[],
  reads: ReadonlyMap<string, LiveRead<Project>>,
  now: Date,
): BudgetLedger {
  const span = periodOf(budget.per, now);
  const cap = Math.round(budget.usd * 100);
  const covered = projects.filter((p) => sendsIn(p) && budgetCovers(budget, organizationOf(p)));
  const coveredSet = new Set(covered);
  // A file project whose send this plan makes, or that it wants not to send (a pause), is not committed.
  const planning = new Set(
    projects.filter((p) => coveredSet.has(p) || p.desired !== "scheduled").map((p) => p.project_id),
  );
  // Scheduled live and not yet sent: committed, though the statistics show no cost for it yet.
  let scheduled = 0;
  for (const [id, r] of reads)
    if (r.kind === "found" && r.value.status === "scheduled" && !planning.has(id)) {
      const names = [r.value.organization_id];
      if (budgetCovers(budget, names)) scheduled += r.value.estimated_cost_cents ?? 0;
    }
  const readable = spent !== undefined && !("unreadable" in spent);
  const figures: BudgetFigures = {
    budget: budgetName(budget),
    period_start: span.startDate,
    cap_cents: cap,
    spent_cents: readable ? spent.cents : null,
    scheduled_cents: scheduled,
    planned_cents: 0,
    held: [],
  };
  const ledger = { budget, figures, plannedBefore: new Map<string, number>(), spent, now };
  const held: string[] = [];
  let planned = 0;
  for (const p of covered) {
    ledger.plannedBefore.set(p.address, planned);
    if (overBudget(ledger, p, planned) !== undefined) held.push(p.address);
    else planned += p.estimate?.estimated_cost_cents ?? 0;
  }
  return { ...ledger, figures: { ...figures, planned_cents: readable ? planned : 0, held } };
}
