/**
 * The email part of `plan` and `apply` (IO): reads each list's CSV (streaming), reads GET
 * /email/campaigns (every cursor page) and each described sending domain, and hands them to the
 * pure checks of src/email. Returns undefined when the files describe no email.
 */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { ApiClient } from "../../src/api/index.js";
import type { CampaignFile } from "../../src/campaign/model.js";
import type { EmailCampaign } from "../../src/contract/resources.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { checkEmailCampaign, type DomainRead, skippedCampaign } from "../../src/email/campaign-check.js";
import { isEarlyAccess } from "../../src/email/early-access.js";
import type { EmailListPlan, EmailPlan } from "../../src/email/email-plan.js";
import type { EmailListSpec, EmailSpecs } from "../../src/email/model.js";
import { selectEmail } from "../../src/email/select.js";
import { emailSpecsOf, repeatedLists } from "../../src/email/specs.js";
import { checkList } from "./check-list.js";
import { openRegularFile } from "./csv-rows.js";

/** Pages of GET /email/campaigns read at most (200 campaigns each). */
const MAX_PAGES = 50;

export interface EmailPlanned {
  readonly specs: EmailSpecs;
  readonly plan: EmailPlan;
}

/** `--target`/`--exclude` as the run was given them (empty: everything). */
export interface Selectors {
  readonly targets: readonly string[];
  readonly excludes: readonly string[];
}

export async function planEmail(
  files: readonly CampaignFile[],
  requireConsent: boolean,
  client: ApiClient,
  cwd: string,
  selectors: Selectors,
): Promise<EmailPlanned | undefined> {
  const all = selectEmail(emailSpecsOf(files), selectors.targets, selectors.excludes).specs;
  if (all.lists.length === 0 && all.campaigns.length === 0) return undefined;
  const { specs, diagnostics: repeated } = repeatedLists(all);
  const diagnostics: Diagnostic[] = [...repeated];
  const read = await readCampaigns(client);
  const available = read.kind === "read" ? true : read.kind === "early-access" ? false : null;
  if (read.kind === "failed") diagnostics.push(read.diagnostic);
  const lists: EmailListPlan[] = [];
  for (const list of specs.lists) {
    const check = await checkList(list, cwd, requireConsent);
    const state: EmailListPlan["state"] = !check.readable
      ? "unreadable"
      : available === false
        ? "skipped"
        : check.to_send === 0
          ? "nothing"
          : "sync";
    lists.push({
      ...check,
      state,
      sha256: check.readable ? await csvSha256(resolve(cwd, list.csvPath)) : null,
      diagnostics: state === "skipped" ? [...check.diagnostics, earlyAccessList(list)] : check.diagnostics,
    });
  }
  const listIds = new Map(specs.lists.map((l) => [l.address, l.id]));
  const campaigns = [];
  for (const spec of specs.campaigns) {
    if (read.kind === "early-access") {
      campaigns.push(skippedCampaign(spec));
      continue;
    }
    if (read.kind === "failed") continue;
    const domain =
      spec.sendingDomain === undefined ? undefined : await readDomain(client, spec.sendingDomain);
    if (domain?.kind === "early-access") {
      campaigns.push(skippedCampaign(spec));
      continue;
    }
    campaigns.push(checkEmailCampaign(spec, read.campaigns, listIds, domain));
  }
  return { specs, plan: { available, lists, campaigns, diagnostics } };
}

/**
 * The sha256 (hex) of a file, read as a stream (memory does not grow with the rows); null when
 * unreadable or not a regular file (a named pipe is never waited on).
 */
export async function csvSha256(path: string): Promise<string | null> {
  const hash = createHash("sha256");
  const opened = await openRegularFile(path);
  if (!opened.ok) return null;
  try {
    for await (const chunk of opened.handle.createReadStream()) hash.update(chunk as Buffer);
    return hash.digest("hex");
  } catch {
    return null;
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

export type CampaignsRead =
  | { readonly kind: "read"; readonly campaigns: readonly EmailCampaign[] }
  | { readonly kind: "early-access" }
  | { readonly kind: "failed"; readonly diagnostic: Diagnostic };

/** Every page of GET /email/campaigns, or early access, or the failure as a diagnostic. */
export async function readCampaigns(client: ApiClient): Promise<CampaignsRead> {
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
      return { kind: "read", campaigns };
    cursor = res.value.next_cursor;
  }
  return { kind: "read", campaigns };
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

/**
 * What `--target`/`--exclude` leave out of the email part of the run, said once (never silently):
 * the note to print, or undefined when nothing of the files' email is left out.
 */
export function emailLeftOutNote(files: readonly CampaignFile[], selectors: Selectors): string | undefined {
  if (selectors.targets.length === 0 && selectors.excludes.length === 0) return undefined;
  const { leftOut } = selectEmail(emailSpecsOf(files), selectors.targets, selectors.excludes);
  const parts = [
    ...(leftOut.lists.length === 0 ? [] : [`the email lists ${leftOut.lists.join(", ")}`]),
    ...(leftOut.campaigns.length === 0 ? [] : [`the email campaigns ${leftOut.campaigns.join(", ")}`]),
  ];
  if (parts.length === 0) return undefined;
  const how =
    selectors.targets.length === 0
      ? ""
      : " (name an email list's address with --target to sync it; run without --target to check the email campaigns)";
  return `note: --target/--exclude leave ${parts.join(" and ")} out of this run${how}\n`;
}
