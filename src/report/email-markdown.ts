/**
 * The email part of the Markdown plan report (`plan --markdown`, the pull-request comment): per
 * list the rows to send and refused, per campaign its state, drift, blockers with their fix and the
 * dashboard steps. Pure.
 */
import type { EmailPlan } from "../email/email-plan.js";
import { escapeMarkdown } from "./markdown-escape.js";

const n = (x: number): string => x.toLocaleString("en-US");
const code = (s: string): string => `\`${s.replaceAll("`", "'")}\``;

export function renderEmailPlanMarkdown(plan: EmailPlan): string {
  const out: string[] = ["### Email", ""];
  if (plan.lists.length > 0) {
    out.push(
      "| list | CSV | state | rows | to send | batches | refused |",
      "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    );
    for (const l of plan.lists)
      out.push(
        `| ${code(l.address)} | ${code(l.csv)} | ${l.state === "skipped" ? "skipped (EMAIL_EARLY_ACCESS)" : l.state} | ${n(l.rows)} | ${n(l.to_send)} | ${n(l.batches)} | ${n(l.refused)} |`,
      );
    out.push("");
    const refusals = plan.lists.flatMap((l) => l.diagnostics).filter((d) => d.severity === "error");
    for (const d of refusals.slice(0, 20))
      out.push(
        `- ${code(d.code)} ${escapeMarkdown(d.range ? `${d.range.file}:${d.range.start.line}: ` : "")}${escapeMarkdown(d.message)}`,
      );
    if (refusals.length > 20)
      out.push(`- and ${n(refusals.length - 20)} more (see \`campaignctl validate\`)`);
    if (refusals.length > 0) out.push("");
  }
  for (const c of plan.campaigns) {
    const title = `**${escapeMarkdown(c.address)}**${c.name === null ? "" : ` (${escapeMarkdown(c.name)})`}`;
    switch (c.state) {
      case "not-found":
        out.push(`- ${title}: not found among the live email campaigns`);
        continue;
      case "ambiguous":
        out.push(`- ${title}: the name matches several live email campaigns: name it by id`);
        continue;
      case "skipped":
        out.push(`- ${title}: skipped (EMAIL_EARLY_ACCESS: email not available yet)`);
        continue;
      case "checked":
        break;
    }
    out.push(`- ${title}: ${c.status ?? ""}${c.approval === null ? "" : `, approval ${c.approval.status}`}`);
    for (const d of c.drift)
      out.push(`  - drift ${code(d.field)}: file ${code(d.file)}, live ${code(d.live)}`);
    for (const b of c.blockers)
      out.push(`  - blocked: ${escapeMarkdown(b.message)}. Fix: ${escapeMarkdown(b.fix)}`);
    for (const s of c.dashboard_steps) out.push(`  - dashboard step: ${escapeMarkdown(s)}`);
  }
  return `${out.join("\n")}\n`;
}
