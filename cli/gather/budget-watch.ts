/**
 * `watch`'s per-poll budget check (docs/policy.md#budgets): the period's spending read as `plan`
 * reads it (cli/gather/budget-spend.ts), judged by src/watch/budget-alert.ts, which alerts once per budget
 * and period. Absent when the policy has no budgets.
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { Policy } from "../../src/policy/model.js";
import { type BudgetAlerted, budgetAlerts } from "../../src/watch/budget-alert.js";
import type { AlsoPolled } from "../../src/watch/watch-loop.js";
import type { LoadedPolicy } from "../adapters/policy-file.js";
import { readBudgetSpend } from "./budget-spend.js";
import type { Session } from "./session.js";

/**
 * The budget check of a loaded policy; a policy that does not load is said on the first poll, loudly
 * (its findings as warnings, with what it costs), and watch goes on guarding without budgets: a
 * guard that stops because of a typo in another rule would be a net that fails silently the other way.
 */
export function budgetWatchOf(
  session: Session,
  loaded: LoadedPolicy,
): (() => Promise<AlsoPolled>) | undefined {
  if (loaded.ok) return budgetWatch(session, loaded.policy);
  let said = false;
  return async () => {
    if (said) return { diagnostics: [] };
    said = true;
    return { diagnostics: loaded.diagnostics.map(unreadPolicy) };
  };
}

function unreadPolicy(d: Diagnostic): Diagnostic {
  return {
    ...d,
    severity: "warning",
    message: `${d.message} (the policy could not be read: watch goes on without its budgets)`,
  };
}

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
    if (spend === undefined) return { diagnostics: [] };
    const judged = budgetAlerts(budgets, spend, now, alerted);
    alerted = judged.alerted;
    return { diagnostics: judged.diagnostics };
  };
}
