/**
 * The email reads of `plan` and `apply` (IO only): each list's CSV (streaming), GET
 * /email/campaigns (every cursor page) and each described sending domain, gathered for the judge
 * (src/plan/email-items.ts), which makes the plan's email items from them.
 */
import type { ApiClient } from "../../src/api/index.js";
import type { OwnerRouter } from "../../src/api/routing/router.js";
import type { EmailCampaign } from "../../src/contract/resources.js";
import { isEarlyAccess } from "../../src/email/early-access.js";
import type { EmailSpecs } from "../../src/email/model.js";
import type { DomainRead } from "../../src/plan/email-campaign.js";
import type { CampaignsRead, EmailReads, ListRead } from "../../src/plan/email-items.js";
import { checkListRead } from "./check-list.js";

/** Pages of GET /email/campaigns read at most (200 campaigns each). */
const MAX_PAGES = 50;

/**
 * The email reads the judge needs for the lists and campaigns a run covers: each list's CSV read
 * to its end (its tally, then its sha256), GET /email/campaigns (every page), and each sending
 * domain a covered campaign names (once each, after the campaigns answered). Undefined when the run
 * covers no email.
 */
export async function readEmail(
  specs: EmailSpecs,
  requireConsent: boolean,
  client: EmailReader,
  cwd: string,
): Promise<EmailReads | undefined> {
  if (specs.lists.length === 0 && specs.campaigns.length === 0) return undefined;
  const campaigns = await readCampaigns(client);
  const lists = new Map<string, ListRead>();
  for (const list of specs.lists) {
    lists.set(list.address, await checkListRead(list, cwd, requireConsent));
  }
  const domains = new Map<string, DomainRead>();
  if (campaigns.kind === "read")
    for (const spec of specs.campaigns)
      if (spec.sendingDomain !== undefined && !domains.has(spec.sendingDomain))
        domains.set(spec.sendingDomain, await readDomain(client, spec.sendingDomain));
  return { lists, campaigns, domains };
}

/**
 * What the email reads go through: a client, and with keys per organization the router, which also
 * says the organizations whose keys answered 403 EMAIL_EARLY_ACCESS to the last merged GET
 * /email/campaigns (`withoutEmail`; none with one key: its 403 is the read's).
 */
export type EmailReader = ApiClient & Partial<Pick<OwnerRouter, "withoutEmail">>;

/**
 * Every page of GET /email/campaigns (with the organizations the listing left out for want of
 * email), or early access, or the failure as a diagnostic.
 */
export async function readCampaigns(client: EmailReader): Promise<CampaignsRead> {
  const withoutEmail = () => client.withoutEmail?.() ?? [];
  const campaigns: EmailCampaign[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await client.listEmailCampaigns({ limit: 200, ...(cursor === undefined ? {} : { cursor }) });
    if (!res.ok) {
      if (isEarlyAccess(res.error)) return { kind: "early-access" };
      return {
        kind: "failed",
        diagnostic: {
          severity: "error",
          code: "api.rejected",
          message: `GET /email/campaigns failed: ${res.error.message}`,
          hint: "the email campaigns are not checked; run plan again",
        },
      };
    }
    campaigns.push(...res.value.data);
    if (!res.value.has_more || res.value.next_cursor === null || res.value.next_cursor === "")
      return { kind: "read", campaigns, withoutEmail: withoutEmail() };
    cursor = res.value.next_cursor;
  }
  return { kind: "read", campaigns, withoutEmail: withoutEmail() };
}

async function readDomain(client: ApiClient, id: string): Promise<DomainRead> {
  const res = await client.getSendingDomain(id);
  if (res.ok) return { kind: "read", domain: res.value };
  if (isEarlyAccess(res.error)) return { kind: "early-access" };
  return {
    kind: "failed",
    message: `${res.error.kind === "http" ? res.error.status : res.error.cause} ${res.error.message}`,
  };
}
