/**
 * The email part of `status` (IO): reads GET /email/campaigns and gives the figures of each email
 * campaign the files describe (src/email/figures.ts), with the alert of a tripped guard. Undefined
 * when the files describe no email campaign.
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { type EmailCampaignFigures, emailFigures, guardAlert } from "../../src/email/figures.js";
import type { EmailCampaignSpec } from "../../src/email/model.js";
import { findCampaign, skippedCampaign } from "../../src/plan/email-campaign.js";
import { ofOrganizationWithoutEmail } from "../../src/plan/email-items.js";
import type { StatusEmail } from "../../src/report/status-view.js";
import { type EmailReader, readCampaigns } from "./plan-email.js";

export async function statusEmail(
  specs: readonly EmailCampaignSpec[],
  client: EmailReader,
): Promise<StatusEmail | undefined> {
  if (specs.length === 0) return undefined;
  const read = await readCampaigns(client);
  if (read.kind === "early-access")
    return {
      campaigns: [],
      diagnostics: specs.flatMap((s) => skippedCampaign(s).diagnostics),
      read: "early-access",
    };
  if (read.kind === "failed") return { campaigns: [], diagnostics: [read.diagnostic], read: "failed" };
  const campaigns: EmailCampaignFigures[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const spec of specs) {
    const found = findCampaign(spec, read.campaigns);
    if (found.kind === "not-found" && ofOrganizationWithoutEmail(spec, read)) {
      diagnostics.push(...skippedCampaign(spec).diagnostics);
      continue;
    }
    if (found.kind !== "found") {
      diagnostics.push({
        severity: "warning",
        code: found.kind === "not-found" ? "email.campaign-not-found" : "email.campaign-ambiguous",
        message: `email campaign ${spec.address}: ${found.kind === "not-found" ? "not among the live email campaigns" : `matches ${found.ids.length} live email campaigns`}`,
        range: spec.range,
      });
      continue;
    }
    const figures = emailFigures(spec, found.campaign);
    campaigns.push(figures);
    const alert = guardAlert(spec, figures);
    if (alert !== undefined) diagnostics.push(alert);
  }
  return { campaigns, diagnostics, read: "read" };
}
