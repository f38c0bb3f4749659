/**
 * A policy file in memory: an organization's rules for its campaign files (issue: policy as code).
 * Produced only by `parsePolicy`, after schema validation, so every rule has the type the schema
 * promises. Every rule remembers where it was written, for the `related` part of a violation.
 */
import type { SourceRange } from "../diagnostics/diagnostic.js";

export type DailyCapBypassRule = "forbid" | "allow" | "require_label";

/** The label a project must carry to set `daily_cap_bypass` under `require_label`. */
export const DAILY_CAP_BYPASS_LABEL = "daily-cap-bypass-approved";

/** A time of day `HH:MM` in 24-hour form; `to` may be `24:00`. Invariant: `from` and `to` match that form. */
export interface SendWindow {
  readonly from: string;
  readonly to: string;
}

/** The rules, as the schema allows them; an absent rule is not enforced. */
export interface PolicyRules {
  readonly daily_cap_bypass?: DailyCapBypassRule;
  readonly min_test_contacts?: number;
  readonly max_estimated_cost_usd?: number;
  readonly send_window?: SendWindow;
  readonly require_opt_out_language?: boolean;
  readonly forbid_at_now?: boolean;
}

export type PolicyRuleName = keyof PolicyRules;

/** Every rule name, in the order reports list them. */
export const POLICY_RULE_NAMES: readonly PolicyRuleName[] = [
  "daily_cap_bypass",
  "min_test_contacts",
  "max_estimated_cost_usd",
  "send_window",
  "require_opt_out_language",
  "forbid_at_now",
];

/**
 * A loaded policy. Invariant: `ranges` has an entry for every rule present in `rules` (where the
 * rule's key is written in `file`).
 */
export interface Policy {
  readonly file: string;
  readonly rules: PolicyRules;
  readonly ranges: Readonly<Partial<Record<PolicyRuleName, SourceRange>>>;
}
