/**
 * The policy in force as people read it, for the plan's terminal header, its Markdown and the
 * gallery: which files make it up, its rules, and every rule loosened on purpose. Pure.
 */
import type { PlanPolicy } from "../plan/types.js";
import { POLICY_RULE_NAMES } from "../policy/model.js";
import { policyRuleText } from "../policy/rule-text.js";

/** The words of a plan's policy. Invariant: `loosened` has one entry per loosening, in order. */
export interface PolicyWords {
  /** `campaignctl.policy.yaml, campaigns/campaignctl.policy.yaml`, or `none`. */
  readonly files: string;
  /** `daily_cap_bypass forbid, min_test_contacts 2, ...`, or `none`. */
  readonly rules: string;
  /** `max_estimated_cost_usd $500 -> off, by --loosen-policy`. */
  readonly loosened: readonly string[];
}

export function describePolicy(policy: PlanPolicy | null): PolicyWords {
  if (policy === null) return { files: "none", rules: "none", loosened: [] };
  const rules = POLICY_RULE_NAMES.filter((r) => policy.rules[r] !== undefined).map(
    (r) => `${r} ${policyRuleText(r, policy.rules)}`,
  );
  return {
    files: policy.files.length === 0 ? "none (only --loosen-policy)" : policy.files.join(", "),
    rules: rules.length === 0 ? "none" : rules.join(", "),
    loosened: policy.loosened.map(
      (l) =>
        `${l.rule} ${policyRuleText(l.rule, { [l.rule]: l.from })} -> ${l.to === null ? "off" : policyRuleText(l.rule, { [l.rule]: l.to })}, by ${l.by}`,
    ),
  };
}
