/**
 * A project's guard in words, shared by the plan's terminal, Markdown and gallery views: the
 * thresholds `campaignctl watch` pauses the send at (a rate over its maximum, once `min_sample`
 * messages are sent). Pure.
 */
import type { PlanGuard } from "../plan/types.js";
import { formatCount } from "./plan-describe.js";

/** A fraction as a percentage, at most 4 decimals, no trailing zeros: `0.05` -> `5%`, `0.015` -> `1.5%`. */
export function formatRate(rate: number): string {
  return `${Number((rate * 100).toFixed(4))}%`;
}

/** The rates a guard judges, as `[what, maximum]` pairs (`failure rate`, `5%`), failure first. */
function limits(guard: PlanGuard): (readonly [string, string])[] {
  const out: (readonly [string, string])[] = [];
  if (guard.max_failure_rate !== null) out.push(["failure", formatRate(guard.max_failure_rate)]);
  if (guard.max_opt_out_rate !== null) out.push(["opt-out", formatRate(guard.max_opt_out_rate)]);
  return out;
}

function sample(guard: PlanGuard): string {
  return `${formatCount(guard.min_sample)} message${guard.min_sample === 1 ? " is" : "s are"} sent`;
}

/**
 * `campaignctl watch pauses the send when its failure rate is over 5% or its opt-out rate is over
 * 2%, judged once 100 messages are sent`.
 */
export function describeGuard(guard: PlanGuard): string {
  const over = limits(guard).map(([what, max]) => `its ${what} rate is over ${max}`);
  if (over.length === 0) return "campaignctl watch never pauses the send (the guard sets no rate)";
  return `campaignctl watch pauses the send when ${over.join(" or ")}, judged once ${sample(guard)}`;
}

/** A guard in short pieces for a narrow cell: `["failure > 5%", "opt-out > 2%"]` and `from 100 sent`. */
export function guardPieces(guard: PlanGuard): {
  readonly limits: readonly string[];
  readonly sample: string;
} {
  return {
    limits: limits(guard).map(([what, max]) => `${what} > ${max}`),
    sample: `from ${formatCount(guard.min_sample)} sent`,
  };
}

/** `failure > 5%, opt-out > 2% (from 100 sent)`, for a table cell; `none` without a guard. */
export function describeGuardShort(guard: PlanGuard | null): string {
  if (guard === null) return "none";
  const pieces = guardPieces(guard);
  return `${pieces.limits.length === 0 ? "no rate" : pieces.limits.join(", ")} (${pieces.sample})`;
}
