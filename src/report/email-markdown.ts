/**
 * The email lists, email campaigns and reply rule sets of the Markdown plan report (`plan
 * --markdown`, the pull-request comment), part of the one plan view: per list the rows to send and
 * refused with its verdict, per campaign its state, drift, blockers with their fix and the
 * dashboard steps, per project with reply rules its rules; then every finding of the email part,
 * by severity (each one the summary line counts). Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type PlanEmail, planEmailDiagnostics, type ReplyRuleSetItem } from "../plan/items.js";
import type { Plan } from "../plan/types.js";
import { renderDiagnosticsMarkdown } from "./diagnostics-markdown.js";
import { escapeMarkdown } from "./markdown-escape.js";
import { bySeverity, severityHeading } from "./severity-heading.js";

const n = (x: number): string => x.toLocaleString("en-US");
const code = (s: string): string => `\`${s.replaceAll("`", "'")}\``;

/** The plan's items beside its projects, as Markdown blocks ending with a blank line; "" for none. */
export function renderItemsMarkdown(plan: Plan): string {
  const out: string[] = [];
  if (plan.email !== undefined) out.push(...emailBlock(plan.email));
  if (plan.replies !== undefined) out.push(...repliesBlock(plan.replies));
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}

function emailBlock(email: PlanEmail): string[] {
  const out: string[] = ["### Email", ""];
  if (email.lists.length > 0) {
    out.push(
      "| list | organization | CSV | verdict | rows | to send | batches | refused |",
      "| --- | --- | --- | --- | ---: | ---: | ---: | ---: |",
    );
    for (const l of email.lists)
      out.push(
        `| ${code(l.address)} | ${escapeMarkdown(l.organization ?? "")} | ${code(l.csv)} | ${l.verdict}: ${escapeMarkdown(l.reason)} | ${n(l.rows)} | ${n(l.to_send)} | ${n(l.batches)} | ${n(l.refused)} |`,
      );
    out.push("");
  }
  for (const c of email.campaigns) {
    const title = `**${escapeMarkdown(c.address)}**${c.name === null ? "" : ` (${escapeMarkdown(c.name)})`}`;
    out.push(
      `- ${title}: ${c.verdict}: ${escapeMarkdown(c.reason)}${c.status === null ? "" : `; ${c.status}`}`,
    );
    if (c.approval !== null) out.push(`  - approval: ${escapeMarkdown(c.approval.status)}`);
    for (const d of c.drift)
      out.push(`  - drift ${code(d.field)}: file ${code(d.file)}, live ${code(d.live)}`);
    for (const b of c.blockers)
      out.push(`  - blocked: ${escapeMarkdown(b.message)}. Fix: ${escapeMarkdown(b.fix)}`);
    for (const s of c.dashboard_steps) out.push(`  - dashboard step: ${escapeMarkdown(s)}`);
  }
  if (email.campaigns.length > 0) out.push("");
  // Dashboard steps are the campaigns' lines above; every other finding is listed, as counted.
  const findings = planEmailDiagnostics(email).filter((d) => d.code !== "email.dashboard-step");
  out.push(...diagnosticsBlocks(findings, " (email)"));
  return out;
}

function repliesBlock(replies: readonly ReplyRuleSetItem[]): string[] {
  const out = ["### Reply rules", ""];
  for (const r of replies)
    out.push(
      `- ${code(r.address)}${r.organization === null ? "" : ` (${escapeMarkdown(r.organization)})`}: ${r.verdict}: ${escapeMarkdown(r.reason)}`,
    );
  out.push("");
  return out;
}

function diagnosticsBlocks(diagnostics: readonly Diagnostic[], about: string): string[] {
  return bySeverity(diagnostics).flatMap((g) => [
    `**${severityHeading(g.severity)}${about}**`,
    "",
    renderDiagnosticsMarkdown(g.diagnostics),
    "",
  ]);
}
