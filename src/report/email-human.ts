/**
 * The email part of the human plan and apply views: per list the rows to send and refused, per
 * campaign its state, drift, blockers with their fix and the dashboard steps; then the diagnostics,
 * compiler-style. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { EmailCampaignCheck } from "../email/campaign-check.js";
import type { EmailApplyResult, EmailPlan } from "../email/email-plan.js";
import type { EmailCampaignFigures } from "../email/figures.js";
import { own } from "../text/names.js";
import { renderDiagnosticsText } from "./diagnostics-text.js";
import { styleFor } from "./style.js";

export interface EmailViewOptions {
  readonly color: boolean;
  readonly sources: ReadonlyMap<string, string>;
}

const n = (x: number): string => x.toLocaleString("en-US");

function listState(state: EmailPlan["lists"][number]["state"]): string {
  switch (state) {
    case "sync":
      return "will sync";
    case "nothing":
      return "nothing to send";
    case "skipped":
      return "skipped: EMAIL_EARLY_ACCESS (email not available yet)";
    case "unreadable":
      return "cannot be read";
  }
}

export function renderEmailPlanHuman(plan: EmailPlan, options: EmailViewOptions): string {
  const s = styleFor(options.color);
  const out: string[] = [];
  if (plan.lists.length > 0) {
    out.push(s.bold("Email lists:"));
    for (const l of plan.lists)
      out.push(
        `  ${s.bold(l.address)} (${l.list_id}) ${l.csv}: ${listState(l.state)}; ${n(l.rows)} rows, ${n(l.to_send)} to send in ${n(l.batches)} batch${l.batches === 1 ? "" : "es"}, ${n(l.refused)} refused by validation`,
      );
  }
  if (plan.campaigns.length > 0) {
    out.push(s.bold("Email campaigns:"));
    for (const c of plan.campaigns) out.push(...campaignLines(c));
  }
  const diagnostics: Diagnostic[] = [
    ...plan.diagnostics,
    ...plan.lists.flatMap((l) => l.diagnostics),
    ...plan.campaigns.flatMap((c) => c.diagnostics.filter((d) => d.code !== "email.dashboard-step")),
  ];
  const text = `${out.join("\n")}\n`;
  return diagnostics.length === 0
    ? text
    : `${text}\n${renderDiagnosticsText(diagnostics, { sources: options.sources, color: options.color })}`;
}

function campaignLines(c: EmailCampaignCheck): string[] {
  const name = c.name === null ? "" : ` "${c.name}"`;
  const head = `  ${c.address} (${c.id ?? "?"}${name})`;
  switch (c.state) {
    case "not-found":
      return [`${head}: not found among the live email campaigns`];
    case "ambiguous":
      return [`${head}: the name matches several live email campaigns`];
    case "skipped":
      return [`${head}: skipped: EMAIL_EARLY_ACCESS (email not available yet)`];
    case "checked":
      break;
  }
  const lines = [
    `${head}: ${c.status}${c.approval === null ? "" : `, approval ${c.approval.status}${c.approval.required ? " (required)" : ""}`}`,
  ];
  for (const d of c.drift) lines.push(`    drift ${d.field}: file ${d.file}, live ${d.live}`);
  for (const b of c.blockers) lines.push(`    blocked: ${b.message}`, `      fix: ${b.fix}`);
  for (const step of c.dashboard_steps) lines.push(`    dashboard step: ${step}`);
  return lines;
}

export function renderEmailApplyHuman(result: EmailApplyResult, options: EmailViewOptions): string {
  const s = styleFor(options.color);
  const out: string[] = [s.bold("Email lists:")];
  for (const l of result.lists) {
    const file = own(result.results_files, l.address);
    out.push(
      `  ${s.bold(l.address)} (${l.list_id}): ${l.state}; ${n(l.rows)} rows: ${n(l.accepted)} accepted, ${n(l.rejected)} rejected by the API, ${n(l.duplicates)} duplicates, ${n(l.refused)} refused before sending${l.skipped > 0 ? `, ${n(l.skipped)} skipped` : ""}${l.not_sent > 0 ? `, ${n(l.not_sent)} not sent` : ""}; ${l.batches.length} batches (${l.batches.filter((b) => b.outcome === "replayed").length} replayed)`,
    );
    if (file !== undefined) out.push(`    per-row results: ${file}`);
  }
  const diagnostics = result.lists.flatMap((l) => l.diagnostics);
  const text = `${out.join("\n")}\n`;
  return diagnostics.length === 0
    ? text
    : `${text}\n${renderDiagnosticsText(diagnostics, { sources: options.sources, color: options.color })}`;
}

/** The email campaigns' figures under `status`'s table: counts and rates, one line each. */
export function renderEmailStatusText(campaigns: readonly EmailCampaignFigures[]): string {
  if (campaigns.length === 0) return "";
  const pct = (r: number | null): string => (r === null ? "-" : `${(r * 100).toFixed(1)}%`);
  const lines = ["", "Email campaigns:"];
  for (const c of campaigns) {
    const k = c.counts;
    lines.push(
      `  ${c.address} (${c.status}): sent ${n(k.sent)}, delivered ${n(k.delivered)} (${pct(c.rates.delivery)}), bounced ${n(k.bounced)} (${pct(c.rates.bounce)}), complaints ${n(k.complained)} (${pct(c.rates.complaint)}), unsubscribed ${n(k.unsubscribed)} (${pct(c.rates.unsubscribe)}), opened ${pct(c.rates.open)}, clicked ${pct(c.rates.click)}${c.tripped.length > 0 ? "  GUARD TRIPPED" : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
