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
import { respread } from "./assemble.js";
import type { LiveRead } from "./live.js";
import { holdForPolicy } from "./policy-hold.js";
import { summarize } from "./summary.js";
import type { BudgetFigures, Plan, ProjectPlan } from "./types.js";

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
 * `plan` with the sends that would cross a budget held. The budgets are judged over `whole` (the
 * plan of every project of the files, in order: a project judged alone, as apply's re-check right
 * before a send judges it, cannot escape a cap the sends before it fill); holds land on `plan`.
 */
export function withBudgets(
  plan: Plan,
  whole: Plan,
  policy: Policy | null,
  spend: BudgetSpend | undefined,
  specs: readonly ProjectSpec[],
  reads: ReadonlyMap<string, LiveRead<Project>>,
  now: Date,
): { readonly plan: Plan; readonly figures: readonly BudgetFigures[] } {
  const budgets = policy?.rules.budgets ?? [];
  if (budgets.length === 0 || policy === null) return { plan, figures: [] };
  const bySpec = new Map(specs.map((s) => [s.address, s]));
  const held = new Map<string, Diagnostic[]>();
  const figures = budgets.map((budget, i) =>
    judgeBudget(budget, spend?.[i], whole, reads, now, (project, message) => {
      const spec = bySpec.get(project.address);
      const range = policy.ranges.budgets;
      const list = held.get(project.address) ?? [];
      list.push({
        severity: "error",
        code: "policy.budget",
        message: `${project.address}: ${message}`,
        ...(spec === undefined ? {} : { range: spec.locate(["schedule"]) }),
        hint: "send fewer (narrow the lists, shorten the message), wait for the next period, or raise the budget in the policy",
        ...(range === undefined ? {} : { related: [{ message: "the policy's rule budgets", range }] }),
      });
      held.set(project.address, list);
    }),
  );
  if (held.size === 0) return { plan, figures };
  const projects = respread(plan.projects.map((p) => holdForPolicy(p, held.get(p.address) ?? [], true)));
  return { plan: { ...plan, projects, summary: summarize(projects, plan.diagnostics) }, figures };
}

/** One budget over the plan's sends; `hold` is called for each send that would cross it. */
function judgeBudget(
  budget: Budget,
  spent: BudgetSpend[number] | undefined,
  plan: Plan,
  reads: ReadonlyMap<string, LiveRead<Project>>,
  now: Date,
  hold: (project: ProjectPlan, message: string) => void,
): BudgetFigures {
  const span = periodOf(budget.per, now);
  const name = JSON.stringify(budgetName(budget));
  const cap = Math.round(budget.usd * 100);
  const covered = plan.projects.filter((p) => sendsIn(p) && budgetCovers(budget, organizationOf(p)));
  // A file project whose send this plan makes, or that it wants not to send (a pause), is not committed.
  const planning = new Set(
    plan.projects.filter((p) => covered.includes(p) || p.desired !== "scheduled").map((p) => p.project_id),
  );
  // Scheduled live and not yet sent: committed, though the statistics show no cost for it yet.
  let scheduled = 0;
  for (const [id, r] of reads)
    if (r.kind === "found" && r.value.status === "scheduled" && !planning.has(id)) {
      const names = [r.value.organization_id];
      if (budgetCovers(budget, names)) scheduled += r.value.estimated_cost_cents ?? 0;
    }
  const base = { budget: budgetName(budget), period_start: span.startDate, cap_cents: cap };
  const heldHere: string[] = [];
  if (spent === undefined || "unreadable" in spent) {
    const why = spent === undefined ? "not read" : spent.unreadable;
    for (const p of covered) {
      heldHere.push(p.address);
      hold(
        p,
        `the budget ${name} cannot be judged: what was spent ${periodText(budget.per, span)} could not be read (${why}); a cap that cannot be judged holds the send`,
      );
    }
    return { ...base, spent_cents: null, scheduled_cents: scheduled, planned_cents: 0, held: heldHere };
  }
  let planned = 0;
  for (const p of covered) {
    const cost = p.estimate?.estimated_cost_cents ?? null;
    const before = spent.cents + scheduled + planned;
    if (cost === null) {
      heldHere.push(p.address);
      hold(p, `the send's estimate is unknown, so the budget ${name} cannot be judged for it`);
      continue;
    }
    if (before + cost > cap) {
      heldHere.push(p.address);
      const left = Math.max(0, cap - before);
      hold(
        p,
        `the send (estimated ${usd(cost)}) would cross the budget ${name}: spent ${usd(spent.cents)} ${periodText(budget.per, span)}${scheduled > 0 ? `, ${usd(scheduled)} scheduled and not yet sent` : ""}, planned ${usd(planned + cost)} (this send${planned > 0 ? ` and ${usd(planned)} of sends before it in this plan` : ""}), left ${usd(left)} of ${usd(cap)}`,
      );
      continue;
    }
    planned += cost;
  }
  return {
    ...base,
    spent_cents: spent.cents,
    scheduled_cents: scheduled,
    planned_cents: planned,
    held: heldHere,
  };
}
