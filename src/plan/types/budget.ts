/**
 * A budget of the policy as the plan judged it (see ../types.ts). Types only; re-exported by
 * ../types.ts.
 */

/**
 * The figures of one of the policy's budgets as the plan judged them (src/plan/budget-hold.ts),
 * in cents. Carried by a saved plan for review; apply judges the budgets again from fresh reads.
 */
export interface BudgetFigures {
  readonly budget: string;
  readonly period_start: string;
  readonly cap_cents: number;
  /** Null when the period's spending could not be read. */
  readonly spent_cents: number | null;
  readonly scheduled_cents: number;
  readonly planned_cents: number;
  readonly held: readonly string[];
}
