/**
 * An email campaign's guard that can never alert, judged as a project's guard is: one that sets no
 * rate (only `min_sample`) is the error `campaign.guard-without-rate`; a rate of 1 is never
 * exceeded (no rate is over 100 %), the warning `lint.guard-rate-never-trips`. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type EmailCampaignSpec, emailCampaignRange } from "./email-model.js";

const RATES = [
  ["max_bounce_rate", "maxBounceRate", "bounces"],
  ["max_complaint_rate", "maxComplaintRate", "complaints"],
  ["max_unsubscribe_rate", "maxUnsubscribeRate", "unsubscribes"],
] as const;

export function emailGuardFindings(campaigns: readonly EmailCampaignSpec[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const campaign of campaigns) {
    const guard = campaign.guard;
    if (guard === undefined) continue;
    const range = emailCampaignRange(campaign, "guard");
    if (RATES.every(([, field]) => guard[field] === undefined))
      out.push({
        severity: "error",
        code: "campaign.guard-without-rate",
        message: `email campaign \`${campaign.address}\`: its \`guard\` sets no rate, only \`min_sample\`, so \`campaignctl watch\` and \`status\` would never alert on it`,
        range,
        hint: "add `max_bounce_rate`, `max_complaint_rate` or `max_unsubscribe_rate` (e.g. 0.02), or remove the `guard`",
      });
    for (const [key, field, what] of RATES)
      if (guard[field] === 1)
        out.push({
          severity: "warning",
          code: "lint.guard-rate-never-trips",
          message: `email campaign \`${campaign.address}\`: \`${key}: 1\` never alerts: a rate is at most 1 (100 % ${what}), never over it`,
          range,
          hint: `a rate is a fraction: for 1 %, write \`${key}: 0.01\``,
        });
  }
  return out;
}
