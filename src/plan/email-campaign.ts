/**
 * Judges an email campaign described in the files against the live one (GET /email/campaigns) and
 * its sending domain (GET /email/domains/{id}): drift field by field, the API's `blocked` reasons,
 * approval, the domain's DNS records still to add per signal, each with its fix, and the dashboard
 * steps (test, schedule, resume) the API cannot take. Pure: the reads are handed in.
 */

import { type EmailCampaignSpec, emailCampaignRange } from "../campaign/email-model.js";
import { sameInstant } from "../contract/instant.js";
import type { EmailCampaign, SendingDomain } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/** One described field whose live value differs. Values as shown to people. */
export interface EmailDrift {
  readonly field: string;
  readonly file: string;
  readonly live: string;
}

/** Something that stops the campaign from sending, and what to do about it. */
export interface EmailBlocker {
  readonly code: "email.campaign-blocked" | "email.awaiting-approval" | "email.domain-not-ready";
  readonly message: string;
  readonly fix: string;
}

/** A sending domain's readiness: per signal its state and the DNS records still to add. */
export interface DomainReadiness {
  readonly id: string;
  readonly domain: string;
  readonly status: string;
  readonly signals: readonly {
    readonly signal: "dkim" | "mail_from" | "dmarc";
    readonly state: string;
    readonly records: readonly { readonly type: string; readonly name: string; readonly value: string }[];
  }[];
}

/** What the domain read came to: the record, early access, or another failure (as a sentence). */
export type DomainRead =
  | { readonly kind: "read"; readonly domain: SendingDomain }
  | { readonly kind: "early-access" }
  | { readonly kind: "failed"; readonly message: string };

/**
 * One described email campaign, judged. `state`: `checked` (found and judged), `not-found`,
 * `ambiguous` (a name matching several), `skipped` (email not available: early access).
 * Invariant: `drift` and `blockers` are empty unless `checked`.
 */
export interface EmailCampaignCheck {
  readonly address: string;
  readonly id: string | null;
  readonly name: string | null;
  readonly state: "checked" | "not-found" | "ambiguous" | "skipped";
  readonly status: string | null;
  readonly approval: { readonly required: boolean; readonly status: string } | null;
  readonly drift: readonly EmailDrift[];
  readonly blockers: readonly EmailBlocker[];
  readonly domain: DomainReadiness | null;
  readonly dashboard_steps: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Approval states that let a campaign send. */
const APPROVED = new Set(["approved", "not_required"]);
const VERIFIED = new Set(["verified", "valid", "active"]);

/** Finds the live campaign a spec names: by id, else by exact name (two matches: ambiguous). */
export function findCampaign(
  spec: EmailCampaignSpec,
  live: readonly EmailCampaign[],
):
  | { readonly kind: "found"; readonly campaign: EmailCampaign }
  | { readonly kind: "not-found" | "ambiguous"; readonly ids: readonly string[] } {
  if (spec.id !== undefined) {
    const hit = live.find((c) => c.id === spec.id);
    return hit === undefined ? { kind: "not-found", ids: [] } : { kind: "found", campaign: hit };
  }
  const named = live.filter((c) => c.status !== "deleted" && c.name === spec.name);
  if (named.length === 1 && named[0] !== undefined) return { kind: "found", campaign: named[0] };
  return named.length === 0
    ? { kind: "not-found", ids: [] }
    : { kind: "ambiguous", ids: named.map((c) => c.id) };
}

/** The skipped check of a campaign whose organization has no email yet. */
export function skippedCampaign(spec: EmailCampaignSpec): EmailCampaignCheck {
  return {
    ...empty(spec, "skipped"),
    diagnostics: [
      {
        severity: "warning",
        code: "email.early-access",
        message: `email campaign ${spec.address} skipped: email is not yet available to the organization (403 EMAIL_EARLY_ACCESS)`,
        range: spec.range,
        hint: "nothing to do in the files: they are checked unchanged once email is generally available",
      },
    ],
  };
}

function empty(spec: EmailCampaignSpec, state: EmailCampaignCheck["state"]): EmailCampaignCheck {
  return {
    address: spec.address,
    id: spec.id ?? null,
    name: spec.name ?? null,
    state,
    status: null,
    approval: null,
    drift: [],
    blockers: [],
    domain: null,
    dashboard_steps: [],
    diagnostics: [],
  };
}

/**
 * Judges one spec. `listIds` maps list addresses of `email_lists:` to their ids (other entries of
 * `lists:` are ids already); `domain` is the read of the spec's `sending_domain` (absent when the
 * file names none).
 */
export function checkEmailCampaign(
  spec: EmailCampaignSpec,
  live: readonly EmailCampaign[],
  listIds: ReadonlyMap<string, string>,
  domain: DomainRead | undefined,
): EmailCampaignCheck {
  const found = findCampaign(spec, live);
  if (found.kind !== "found") {
    const what = spec.id !== undefined ? `id ${spec.id}` : `name "${spec.name}"`;
    return {
      ...empty(spec, found.kind),
      diagnostics: [
        found.kind === "not-found"
          ? {
              severity: "error",
              code: "email.campaign-not-found",
              message: `email campaign ${spec.address}: no live email campaign has the ${what}`,
              range: spec.range,
              hint: "create it in the dashboard, or correct the id or name",
            }
          : {
              severity: "error",
              code: "email.campaign-ambiguous",
              message: `email campaign ${spec.address}: the ${what} matches ${found.ids.length} live campaigns (${found.ids.join(", ")})`,
              range: spec.range,
              hint: "name the campaign by id",
            },
      ],
    };
  }
  const c = found.campaign;
  const drift = driftOf(spec, c, listIds);
  const blockers: EmailBlocker[] = c.blocked.map((b) => ({
    code: "email.campaign-blocked",
    message: `${b.code}: ${b.message}`,
    fix: `resolve it in the dashboard (${b.code})`,
  }));
  const approvalRequired = c.require_approval;
  if (approvalRequired && !APPROVED.has(c.approval_status))
    blockers.push({
      code: "email.awaiting-approval",
      message: `the campaign requires approval and its approval status is ${c.approval_status}`,
      fix: "have an approver approve it in the dashboard",
    });
  const readiness = domain?.kind === "read" ? readinessOf(domain.domain) : null;
  if (readiness !== null && !VERIFIED.has(readiness.status)) {
    const todo = readiness.signals.filter((s) => !VERIFIED.has(s.state));
    blockers.push({
      code: "email.domain-not-ready",
      message: `sending domain ${readiness.domain} is ${readiness.status}: ${todo.map((s) => `${s.signal} ${s.state}`).join(", ")}`,
      fix: domainFix(readiness),
    });
  }
  const diagnostics: Diagnostic[] = [];
  for (const d of drift)
    diagnostics.push({
      severity: "error",
      code: "email.campaign-drift",
      message: `email campaign ${spec.address}: ${d.field} differs: the file says ${d.file}, the live campaign has ${d.live}`,
      range: emailCampaignRange(spec, fileKey(d.field)),
      hint: "edit the file to match, or change the campaign in the dashboard (the API cannot edit email campaigns)",
    });
  for (const b of blockers)
    diagnostics.push({
      severity: "error",
      code: b.code,
      message: `email campaign ${spec.address}: ${b.message}`,
      range: b.code === "email.domain-not-ready" ? emailCampaignRange(spec, "sending_domain") : spec.range,
      hint: b.fix,
    });
  if (domain?.kind === "failed")
    diagnostics.push({
      severity: "error",
      code: "email.domain-not-ready",
      message: `email campaign ${spec.address}: the sending domain ${spec.sendingDomain} could not be read: ${domain.message}`,
      range: emailCampaignRange(spec, "sending_domain"),
      hint: "check the id under sending_domain",
    });
  const steps = dashboardSteps(spec, c);
  for (const step of steps)
    diagnostics.push({
      severity: "info",
      code: "email.dashboard-step",
      message: `email campaign ${spec.address}: ${step}`,
      range: spec.range,
    });
  return {
    address: spec.address,
    id: c.id,
    name: c.name,
    state: "checked",
    status: c.status,
    approval: { required: approvalRequired, status: c.approval_status },
    drift,
    blockers,
    domain: readiness,
    dashboard_steps: steps,
    diagnostics,
  };
}

function fileKey(field: string): string {
  return field === "sender_identity_id" ? "sender" : field === "scheduled_at" ? "schedule" : field;
}

const sorted = (xs: readonly string[]): string => `[${[...xs].sort().join(", ")}]`;

function driftOf(
  spec: EmailCampaignSpec,
  c: EmailCampaign,
  listIds: ReadonlyMap<string, string>,
): EmailDrift[] {
  const out: EmailDrift[] = [];
  const sets = (field: string, file: readonly string[] | undefined, live: readonly string[]): void => {
    if (file === undefined) return;
    // Sets of ids: a list named twice (by its address and by its id) is one list, and a count
    // equal to the live one's must not hide a live list the file does not name.
    const want = [...new Set(file.map((x) => listIds.get(x) ?? x))];
    const same = want.every((x) => live.includes(x)) && live.every((x) => want.includes(x));
    if (!same) out.push({ field, file: sorted(want), live: sorted(live) });
  };
  sets("lists", spec.lists, c.list_ids);
  sets("suppression_lists", spec.suppressionLists, c.suppression_list_ids);
  if (spec.sender !== undefined && spec.sender !== c.sender_identity_id)
    out.push({ field: "sender", file: spec.sender, live: c.sender_identity_id || "none" });
  if (spec.timezone !== undefined && spec.timezone !== c.timezone)
    out.push({ field: "timezone", file: spec.timezone, live: c.timezone || "none" });
  if (spec.requireApproval !== undefined && spec.requireApproval !== c.require_approval)
    out.push({
      field: "require_approval",
      file: String(spec.requireApproval),
      live: String(c.require_approval),
    });
  if (
    spec.schedule !== undefined &&
    c.scheduled_at !== null &&
    !sameInstant(spec.schedule.at, c.scheduled_at)
  )
    out.push({ field: "schedule", file: spec.schedule.at, live: c.scheduled_at });
  return out;
}

function readinessOf(d: SendingDomain): DomainReadiness {
  const signals = (["dkim", "mail_from", "dmarc"] as const).map((signal) => ({
    signal,
    state: d.verification[signal],
    records: VERIFIED.has(d.verification[signal])
      ? []
      : d.dns_records
          .filter((r) => r.purpose === signal)
          .map((r) => ({ type: r.type, name: r.name, value: r.value })),
  }));
  return { id: d.id, domain: d.domain, status: d.status, signals };
}

function domainFix(r: DomainReadiness): string {
  const parts: string[] = [];
  for (const s of r.signals) {
    if (VERIFIED.has(s.state)) continue;
    if (s.records.length > 0)
      parts.push(...s.records.map((rec) => `${s.signal}: add ${rec.type} ${rec.name} -> ${rec.value}`));
    else if (s.signal === "dmarc") parts.push(`dmarc: publish a DMARC TXT record at _dmarc.${r.domain}`);
    else parts.push(`${s.signal}: ${s.state}; see the domain in the dashboard`);
  }
  return `at the DNS provider of ${r.domain}: ${parts.join("; ")}; then verify the domain in the dashboard`;
}

function dashboardSteps(spec: EmailCampaignSpec, c: EmailCampaign): string[] {
  const steps: string[] = [];
  switch (c.status) {
    case "draft":
    case "awaiting_test":
      if (c.last_tested_at === null)
        steps.push("send a test in the dashboard (the API cannot test email campaigns)");
      if (spec.schedule !== undefined)
        steps.push(
          `schedule it in the dashboard for ${spec.schedule.at}${spec.timezone ? ` (${spec.timezone})` : ""}`,
        );
      break;
    case "awaiting_approval":
      steps.push("approve it in the dashboard");
      break;
    case "ready":
      if (spec.schedule !== undefined)
        steps.push(
          `schedule it in the dashboard for ${spec.schedule.at}${spec.timezone ? ` (${spec.timezone})` : ""}`,
        );
      break;
    case "paused":
      steps.push("resume it in the dashboard if it should send (the API cannot resume email campaigns)");
      break;
    case "scheduled":
    case "compiling":
    case "sending":
      steps.push("pause it in the dashboard if it must stop (the API cannot pause email campaigns)");
      break;
    case "completed":
    case "deleted":
      break;
  }
  return steps;
}
