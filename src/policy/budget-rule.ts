/**
 * The policy's `budgets` rule (issue 37 point 5): spending caps per organization (or over every
 * organization together) per day, week or month. Periods are UTC calendar periods (the API's
 * statistics days are UTC days) on the API's clock (design.md "One clock"), never the machine's:
 * a day from 00:00 UTC, a week from Monday 00:00 UTC, a month from the 1st 00:00 UTC. This file
 * holds the rule's value, its periods, what "tighter" means and its words. Pure.
 */

export type BudgetPeriod = "day" | "week" | "month";

/**
 * One cap. Invariants (the schema's): `usd` > 0; `organization`, when set, is an organization's
 * name or id (absent: every organization of the key's tree together).
 */
export interface Budget {
  readonly name?: string;
  readonly usd: number;
  readonly per: BudgetPeriod;
  readonly organization?: string;
}

const DAY_MS = 86_400_000;

/** The period of `per` holding `now`: its first UTC day and the first day after it, as `YYYY-MM-DD` and ms. */
export interface PeriodSpan {
  readonly startMs: number;
  readonly endMs: number;
  readonly startDate: string;
  /** The period's last day so far: the UTC day of `now` (the statistics' `endDate`). */
  readonly todayDate: string;
}

export function periodOf(per: BudgetPeriod, now: Date): PeriodSpan {
  const day = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const d = new Date(day);
  let startMs: number;
  let endMs: number;
  switch (per) {
    case "day":
      startMs = day;
      endMs = day + DAY_MS;
      break;
    case "week": {
      // getUTCDay: 0 is Sunday; weeks start on Monday (ISO 8601).
      startMs = day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
      endMs = startMs + 7 * DAY_MS;
      break;
    }
    case "month":
      startMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      endMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      break;
  }
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { startMs, endMs, startDate: iso(startMs), todayDate: iso(day) };
}

/** `monthly $5 for Riverside Democrats` (or the budget's own name). */
export function budgetName(b: Budget): string {
  if (b.name !== undefined) return b.name;
  const every = { day: "daily", week: "weekly", month: "monthly" }[b.per];
  return `${every} $${b.usd} ${b.organization === undefined ? "for every organization" : `for ${b.organization}`}`;
}

/** `this month (since 2026-12-01 UTC)`. */
export function periodText(per: BudgetPeriod, span: PeriodSpan): string {
  return `this ${per} (since ${span.startDate} 00:00 UTC, the API's clock)`;
}

/** A budget's scope and period, one key per cap a nearer file must keep. */
const scopeOf = (b: Budget) => `${b.organization ?? "*"}\u0000${b.per}`;

/**
 * Is `next` at least as strict: for every cap of `current`, a cap of `next` on the same scope
 * and period at most as large?
 */
export function budgetsAtLeastAsStrict(
  next: readonly Budget[] | undefined,
  current: readonly Budget[] | undefined,
): boolean {
  return (current ?? []).every((c) => (next ?? []).some((n) => scopeOf(n) === scopeOf(c) && n.usd <= c.usd));
}

export function budgetsText(budgets: readonly Budget[] | undefined): string {
  return budgets === undefined ? "off" : budgets.map(budgetName).join("; ");
}

/** Whether an organization known by any of `names` (names and ids) is under `b`. */
export function budgetCovers(b: Budget, names: readonly string[]): boolean {
  return b.organization === undefined || names.includes(b.organization);
}

/** Dollars from cents, as messages show them: `$4.00`. */
export function usd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
