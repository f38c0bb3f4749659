/** A rule's value as people read it in messages and reports (`09:00-20:00`, `$500`, `on`). Pure. */
import { approvalsRuleText } from "./approvals-rule.js";
import { budgetsText } from "./budget-rule.js";
import { helpRuleText } from "./help-rule.js";
import type { PolicyRuleName, PolicyRules } from "./model.js";
import { suppressionRuleText } from "./suppression-rule.js";

/** `rules[rule]` in words; `off` when it is not set. */
export function policyRuleText(rule: PolicyRuleName, rules: PolicyRules): string {
  switch (rule) {
    case "daily_cap_bypass":
      return rules.daily_cap_bypass ?? "off";
    case "min_test_contacts":
      return rules.min_test_contacts === undefined ? "off" : String(rules.min_test_contacts);
    case "max_estimated_cost_usd":
      return rules.max_estimated_cost_usd === undefined ? "off" : `$${rules.max_estimated_cost_usd}`;
    case "send_window":
      return rules.send_window === undefined ? "off" : `${rules.send_window.from}-${rules.send_window.to}`;
    case "jurisdictions": {
      const j = rules.jurisdictions;
      return j === undefined
        ? "off"
        : `${j.packs.join(", ")} (${j.messages === "all" ? "every rule" : `${j.messages} messages`})`;
    }
    case "require_places":
      return rules.require_places === true ? "on" : "off";
    case "require_opt_out_language":
      return rules.require_opt_out_language === undefined
        ? "off"
        : rules.require_opt_out_language
          ? "on"
          : "off";
    case "forbid_at_now":
      return rules.forbid_at_now === undefined ? "off" : rules.forbid_at_now ? "on" : "off";
    case "require_guards":
      return rules.require_guards === undefined ? "off" : rules.require_guards ? "on" : "off";
    case "require_email_consent":
      return rules.require_email_consent === true ? "on" : "off";
    case "forecast_errors":
      return rules.forecast_errors === undefined ? "off" : rules.forecast_errors.join(", ");
    case "opt_out_wording":
      return rules.opt_out_wording === undefined
        ? "off"
        : Object.entries(rules.opt_out_wording)
            .map(([language, phrases]) => `${language}: ${phrases.map((p) => `"${p}"`).join(", ")}`)
            .join("; ");
    case "replies": {
      const r = rules.replies;
      if (r === undefined) return "off";
      const words = Object.values(r.opt_out_words ?? {}).flat().length;
      const required = r.require?.length ?? 0;
      return `${words} more opt-out word${words === 1 ? "" : "s"}, ${required} required answer${required === 1 ? "" : "s"}`;
    }
    case "require_approvals":
      return approvalsRuleText(rules.require_approvals);
    case "budgets":
      return budgetsText(rules.budgets);
    case "require_help":
      return helpRuleText(rules.require_help);
    case "require_suppression_lists":
      return suppressionRuleText(rules.require_suppression_lists);
  }
}
