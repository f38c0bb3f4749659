/**
 * Rule: a guard rate of 0 is allowed, but it pauses the send at its first failed message (or first
 * opt-out) once `min_sample` messages are sent, because `campaignctl watch` pauses when a rate is
 * over its maximum. A warning at the rate, in case a small fraction was meant. A rate of 1 never
 * trips (no rate is over 100 %), and `1` is often 1 % meant: a warning too. A guard without any
 * rate is an error of its own (`campaign.guard-without-rate`, project-checks.ts).
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { type LintRule, NO_FINDINGS } from "./rule.js";

export const guardZeroRateRule: LintRule = (project) => {
  const guard = project.guard;
  if (guard === undefined) return NO_FINDINGS;
  const out: Diagnostic[] = [];
  const sample = `once ${guard.minSample} message${guard.minSample === 1 ? " is" : "s are"} sent`;
  if (guard.maxFailureRate === 0)
    out.push({
      severity: "warning",
      code: "lint.guard-zero-rate",
      message: `${project.address}: \`max_failure_rate: 0\` pauses the send at its first failed message, ${sample}`,
      range: project.locate(["guard", "max_failure_rate"]),
      hint: "allow a small share of failures (0.02 is 2%), unless a single failure should pause the send",
    });
  if (guard.maxOptOutRate === 0)
    out.push({
      severity: "warning",
      code: "lint.guard-zero-rate",
      message: `${project.address}: \`max_opt_out_rate: 0\` pauses the send at its first opt-out, ${sample}`,
      range: project.locate(["guard", "max_opt_out_rate"]),
      hint: "allow a small share of opt-outs (0.01 is 1%), unless a single opt-out should pause the send",
    });
  for (const [key, rate, what] of [
    ["max_failure_rate", guard.maxFailureRate, "failed messages"],
    ["max_opt_out_rate", guard.maxOptOutRate, "opt-outs"],
  ] as const)
    if (rate === 1)
      out.push({
        severity: "warning",
        code: "lint.guard-rate-never-trips",
        message: `${project.address}: \`${key}: 1\` never pauses the send: a rate is at most 1 (100 % ${what}), never over it`,
        range: project.locate(["guard", key]),
        hint: `a rate is a fraction: for 1 %, write \`${key}: 0.01\``,
      });
  return out;
};
