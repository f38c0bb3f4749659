/**
 * The judge's email part (issue 33): the email lists and email campaigns the run covers, judged
 * from what the pipeline read (each list's CSV tally and sha256, GET /email/campaigns, each sending
 * domain) into plan items with their organization, verdict and reason. Pure: the reads are handed
 * in (cli/gather/plan-pipeline.ts gathers them); the same reads give the same items.
 */
import type { EmailCampaignSpec, EmailListSpec, EmailSpecs } from "../campaign/email-model.js";
import type { Campaign } from "../campaign/model.js";
import type { EmailCampaign, Organization } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ListCheck } from "../email/list-results.js";
import { checkEmailCampaign, type DomainRead, findCampaign, skippedCampaign } from "./email-campaign.js";
import { selectEmail } from "./email-select.js";
import type { EmailCampaignItem, EmailListItem, EmailListState, PlanEmail } from "./items.js";

/** What reading GET /email/campaigns (every page) came to. */
export type CampaignsRead =
  | {
      readonly kind: "read";
      readonly campaigns: readonly EmailCampaign[];
      /**
       * Organizations whose keys answered 403 EMAIL_EARLY_ACCESS while other keys listed theirs
       * (keys per organization): their campaigns are not in `campaigns` for want of email.
       */
      readonly withoutEmail?: readonly Pick<Organization, "id" | "display_name">[];
    }
  | { readonly kind: "early-access" }
  | { readonly kind: "failed"; readonly diagnostic: Diagnostic };

/** One list's CSV as the pipeline read it: its tally, and the sha256 of its bytes (null: unreadable). */
export interface ListRead {
  readonly check: ListCheck;
  readonly sha256: string | null;
}

/**
 * The email reads of a run. Invariant: `lists` holds every list the selection covers (by address);
 * `domains` every `sending_domain` of a covered campaign, read when the campaigns were.
 */
export interface EmailReads {
  readonly lists: ReadonlyMap<string, ListRead>;
  readonly campaigns: CampaignsRead;
  readonly domains: ReadonlyMap<string, DomainRead>;
}

/** The files' email entries `--target`/`--exclude` cover (email-select.ts). */
export function coveredEmail(
  campaign: Campaign,
  targets: readonly string[],
  excludes: readonly string[],
): EmailSpecs {
  const all = { lists: campaign.emailLists ?? [], campaigns: campaign.emailCampaigns ?? [] };
  return selectEmail(all, targets, excludes).specs;
}

/** The email part of the plan; undefined when the run covers no email list or campaign. */
export function judgeEmail(
  campaign: Campaign,
  reads: EmailReads | undefined,
  targets: readonly string[],
  excludes: readonly string[],
): PlanEmail | undefined {
  const specs = coveredEmail(campaign, targets, excludes);
  if (reads === undefined || (specs.lists.length === 0 && specs.campaigns.length === 0)) return undefined;
  const read = reads.campaigns;
  const available = read.kind === "read" ? true : read.kind === "early-access" ? false : null;
  const lists = specs.lists.flatMap((spec) => {
    const listRead = reads.lists.get(spec.address);
    return listRead === undefined ? [] : [listItem(spec, listRead, available)];
  });
  const listIds = new Map(specs.lists.map((l) => [l.address, l.id]));
  const campaigns: EmailCampaignItem[] = [];
  for (const spec of specs.campaigns) {
    if (read.kind === "failed") continue;
    const domain = spec.sendingDomain === undefined ? undefined : reads.domains.get(spec.sendingDomain);
    const check =
      read.kind === "early-access" ||
      (!listed(spec, read.campaigns) &&
        (domain?.kind === "early-access" || ofOrganizationWithoutEmail(spec, read)))
        ? skippedCampaign(spec)
        : checkEmailCampaign(spec, read.campaigns, listIds, domainOfListed(domain));
    campaigns.push(campaignItem(spec, check));
  }
  return { available, lists, campaigns, diagnostics: read.kind === "failed" ? [read.diagnostic] : [] };
}

/**
 * Whether the campaign's file names an organization whose key answered 403 EMAIL_EARLY_ACCESS while
 * other keys listed their campaigns: not listed for want of email there, not for not existing.
 */
export function ofOrganizationWithoutEmail(
  spec: EmailCampaignSpec,
  read: Extract<CampaignsRead, { kind: "read" }>,
): boolean {
  const named = spec.organization;
  return (
    named !== undefined && (read.withoutEmail ?? []).some((o) => o.id === named || o.display_name === named)
  );
}

/** Whether a key whose organization has email lists the campaign (its organization has email). */
function listed(spec: EmailCampaignSpec, live: readonly EmailCampaign[]): boolean {
  return findCampaign(spec, live).kind === "found";
}

/**
 * The domain read of a campaign that is listed, so whose organization has email: 403
 * EMAIL_EARLY_ACCESS there is the answer of a key without email, after every key with email failed
 * to see the domain (a wrong id, another organization's domain), never a reason to skip the
 * campaign's checks. Which key answers last depends on the order of the keys.
 */
function domainOfListed(domain: DomainRead | undefined): DomainRead | undefined {
  return domain?.kind === "early-access"
    ? {
        kind: "failed",
        message:
          "no key whose organization has email sees it (a key of an organization without email answered 403 EMAIL_EARLY_ACCESS)",
      }
    : domain;
}

function listItem(spec: EmailListSpec, read: ListRead, available: boolean | null): EmailListItem {
  const { check } = read;
  const state: EmailListState = !check.readable
    ? "unreadable"
    : available === false
      ? "skipped"
      : check.to_send === 0
        ? "nothing"
        : "sync";
  const base = {
    ...check,
    state,
    sha256: check.readable ? read.sha256 : null,
    organization: spec.organization ?? null,
  };
  switch (state) {
    case "sync":
      return {
        ...base,
        verdict: "planned",
        reason: `apply upserts ${check.to_send} rows in ${check.batches} batch${check.batches === 1 ? "" : "es"}`,
      };
    case "nothing":
      return { ...base, verdict: "ready", reason: "no row to send" };
    case "skipped":
      return {
        ...base,
        verdict: "skipped",
        reason: "email is not available to the key's organizations yet (403 EMAIL_EARLY_ACCESS)",
        diagnostics: [...check.diagnostics, earlyAccessList(spec)],
      };
    case "unreadable":
      return {
        ...base,
        verdict: "blocked",
        reason: "its CSV cannot be read to its end: fix it and plan again",
      };
  }
}

function earlyAccessList(list: EmailListSpec): Diagnostic {
  return {
    severity: "warning",
    code: "email.early-access",
    message: `email list ${list.address} (${list.id}) skipped: email is not yet available to the key's organizations (403 EMAIL_EARLY_ACCESS)`,
    range: list.range,
    hint: "nothing to do in the files: they sync unchanged once email is generally available",
  };
}

function campaignItem(
  spec: EmailCampaignSpec,
  check: ReturnType<typeof checkEmailCampaign>,
): EmailCampaignItem {
  const organization = spec.organization ?? null;
  if (check.state === "skipped")
    return {
      ...check,
      organization,
      verdict: "skipped",
      reason: "email is not available to the organization yet (403 EMAIL_EARLY_ACCESS)",
    };
  const errors = check.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0)
    return {
      ...check,
      organization,
      verdict: "blocked",
      reason: blockedReason(check),
    };
  const steps = check.dashboard_steps.length;
  return {
    ...check,
    organization,
    verdict: "ready",
    reason: `matches the files${steps === 0 ? "" : `; ${steps} dashboard step${steps === 1 ? "" : "s"} for a person`}`,
  };
}

function blockedReason(check: ReturnType<typeof checkEmailCampaign>): string {
  switch (check.state) {
    case "not-found":
      return "no live email campaign matches it";
    case "ambiguous":
      return "its name matches several live email campaigns";
    default: {
      const parts = [
        ...(check.drift.length === 0 ? [] : [`drift in ${check.drift.map((d) => d.field).join(", ")}`]),
        ...check.blockers.map((b) => b.code.replace(/^email\./, "")),
      ];
      return parts.length === 0 ? "its sending domain could not be read" : parts.join("; ");
    }
  }
}
