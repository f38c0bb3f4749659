/**
 * The email and reply items of the human plan and apply views: per list the rows to send and
 * refused, per campaign its state, drift, blockers with their fix and the dashboard steps, per
 * project its reply rules; then the diagnostics, compiler-style. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { EmailCampaignFigures } from "../email/figures.js";
import { type EmailApplyResult, type EmailCampaignItem, planEmailDiagnostics } from "../plan/items.js";
import type { Plan } from "../plan/types.js";
import { own } from "../text/names.js";
import { renderDiagnosticsText } from "./diagnostics-text.js";
import { styleFor } from "./style.js";

export interface EmailViewOptions {
  readonly color: boolean;
  readonly sources: ReadonlyMap<string, string>;
}

const n = (x: number): string => x.toLocaleString("en-US");

/**
 * The plan's items beside its projects for the terminal (part of the one plan view): the email
 * lists with their verdict, the email campaigns with drift, blockers and dashboard steps, the reply
 * rule sets, then every finding of the email part (each one the summary line counts; a dashboard
 * step is shown on its campaign's lines). "" when the plan has none. No trailing newline.
 */
export function renderItemsHuman(plan: Plan, options: EmailViewOptions): string {
  const s = styleFor(options.color);
  const out: string[] = [];
  const email = plan.email;
  if (email !== undefined && email.lists.length > 0) {
    out.push(s.bold("Email lists:"));
    for (const l of email.lists)
      out.push(
        `  ${s.bold(l.address)} (${l.list_id}${l.organization === null ? "" : `, ${l.organization}`}) ${l.csv}: ${l.verdict}: ${l.reason}; ${n(l.rows)} rows, ${n(l.to_send)} to send in ${n(l.batches)} batch${l.batches === 1 ? "" : "es"}, ${n(l.refused)} refused by validation`,
      );
  }
  if (email !== undefined && email.campaigns.length > 0) {
    out.push(s.bold("Email campaigns:"));
    for (const c of email.campaigns) out.push(...campaignLines(c));
  }
  if (plan.replies !== undefined) {
    out.push(s.bold("Reply rules:"));
    for (const r of plan.replies)
      out.push(
        `  ${s.bold(r.address)}${r.organization === null ? "" : ` (${r.organization})`}: ${r.verdict}: ${r.reason}`,
      );
  }
  if (out.length === 0) return "";
  const diagnostics: Diagnostic[] =
    email === undefined ? [] : planEmailDiagnostics(email).filter((d) => d.code !== "email.dashboard-step");
  const text = out.join("\n");
  return diagnostics.length === 0
    ? text
    : `${text}\n\n${renderDiagnosticsText(diagnostics, { sources: options.sources, color: options.color }).replace(/\n$/, "")}`;
}

function campaignLines(c: EmailCampaignItem): string[] {
  const name = c.name === null ? "" : ` "${c.name}"`;
  const head = `  ${c.address} (${c.id ?? "?"}${name}${c.organization === null ? "" : `, ${c.organization}`}): ${c.verdict}: ${c.reason}`;
  if (c.state !== "checked") return [head];
  const lines = [
    `${head}; ${c.status}${c.approval === null ? "" : `, approval ${c.approval.status}${c.approval.required ? " (required)" : ""}`}`,
  ];
  for (const d of c.drift) lines.push(`    drift ${d.field}: file ${d.file}, live ${d.live}`);
  for (const b of c.blockers) lines.push(`    blocked: ${b.message}`, `      fix: ${b.fix}`);
  for (const step of c.dashboard_steps) lines.push(`    dashboard step: ${step}`);
  return lines;
}

/** The email lists' syncs of an apply run (part of the one apply view); "" when it synced none. */
export function renderEmailApplyHuman(result: EmailApplyResult, options: EmailViewOptions): string {
  if (result.lists.length === 0) return "";
  const s = styleFor(options.color);
  const out: string[] = [s.bold("Email lists:")];
  for (const l of result.lists) {
    const file = own(result.results_files, l.address);
    out.push(
      `  ${s.bold(l.address)} (${l.list_id}): ${l.state}; ${n(l.rows)} rows: ${n(l.accepted)} accepted, ${n(l.rejected)} rejected by the API, ${n(l.duplicates)} duplicates, ${n(l.refused)} refused before sending${l.skipped > 0 ? `, ${n(l.skipped)} skipped` : ""}${l.not_sent > 0 ? `, ${n(l.not_sent)} not sent` : ""}${l.unknown > 0 ? `, ${n(l.unknown)} unknown (maybe written: re-run apply)` : ""}; ${l.batches.length} batches (${l.batches.filter((b) => b.outcome === "replayed").length} replayed)`,
    );
    if (file !== undefined) out.push(`    per-row results: ${file}`);
  }
  const diagnostics = result.lists.flatMap((l) => l.diagnostics);
  const text = out.join("\n");
  return diagnostics.length === 0
    ? text
    : `${text}\n\n${renderDiagnosticsText(diagnostics, { sources: options.sources, color: options.color }).replace(/\n$/, "")}`;
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
