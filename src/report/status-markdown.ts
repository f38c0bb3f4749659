/**
 * `status --markdown FILE`: the status for a pull request or a chat post. A heading with the API's
 * time and the range, one table per organization (its projects and its total), the overall total
 * when there are several organizations, the warnings and errors as a list. Every user text (names,
 * addresses) goes through `escapeMarkdown`, so a project name cannot break the table, format text
 * or mention anyone. Money in dollars (cents; per delivered message 4 decimals), rates as
 * percentages with one decimal. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { EmailCampaignFigures } from "../email/figures.js";
import type { ProjectFigures } from "../status/figures.js";
import type { StatusReport } from "../status/report.js";
import type { Totals } from "../status/totals.js";
import { renderDiagnosticsMarkdown } from "./diagnostics-markdown.js";
import { renderEmailStatusMarkdown } from "./email-status-markdown.js";
import { codeSpan, escapeMarkdown } from "./markdown-escape.js";
import {
  countCell,
  dollarCell,
  groupThousands,
  NO_RATE,
  percentCell,
  perDeliveredCell,
  UNKNOWN,
} from "./status-cells.js";

const HEADER =
  "| Project | Status | Recipients | Sent | Delivered | Failed | Opt-outs | Replies | Clicks | Delivery | Failure | Opt-out | Cost | Estimate | $/delivered |";
const ALIGN = "| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |";

function projectRow(p: ProjectFigures): string {
  const known = p.source === "statistics";
  const label = p.address === null ? escapeMarkdown(p.name ?? p.id) : codeSpan(p.address, true);
  const cells = [
    label,
    p.status === null ? UNKNOWN : escapeMarkdown(p.status),
    countCell(p.recipients),
    countCell(p.sent),
    countCell(p.delivered),
    countCell(p.failed),
    countCell(p.optedOut),
    countCell(p.replies),
    countCell(p.clicks),
    percentCell(p.rates.delivery, known),
    percentCell(p.rates.failure, known),
    percentCell(p.rates.optOut, known),
    dollarCell(p.actualCostE4, 2),
    dollarCell(p.estimatedCostE4, 2),
    perDeliveredCell(p.rates.costPerDeliveredE4, p.actualCostE4 !== null),
  ];
  return `| ${cells.join(" | ")} |`;
}

function totalRow(label: string, t: Totals): string {
  const known = t.projects === 0 || t.withoutStatistics < t.projects;
  const count = (n: number): string => (known ? countCell(n) : UNKNOWN);
  const cells = [
    `**${label}**`,
    "",
    countCell(t.recipients),
    count(t.sent),
    count(t.delivered),
    count(t.failed),
    count(t.optedOut),
    count(t.replies),
    count(t.clicks),
    percentCell(t.rates.delivery, known),
    percentCell(t.rates.failure, known),
    percentCell(t.rates.optOut, known),
    t.withoutActualCost === t.projects && t.projects > 0 ? UNKNOWN : dollarCell(t.actualCostE4, 2),
    dollarCell(t.estimatedCostE4, 2),
    perDeliveredCell(t.rates.costPerDeliveredE4, t.withoutActualCost < t.projects),
  ];
  return `| ${cells.map((c) => (c === "" || c.startsWith("**") ? c : `**${c}**`)).join(" | ")} |`;
}

const plural = (n: number, word: string): string => `${groupThousands(n)} ${word}${n === 1 ? "" : "s"}`;

/**
 * `email`: the email campaigns the files describe, their figures and diagnostics (guard alerts);
 * undefined when they describe none (the section is then exactly the texting one).
 */
export function renderStatusMarkdown(
  report: StatusReport,
  email?: {
    readonly campaigns: readonly EmailCampaignFigures[];
    readonly diagnostics: readonly Diagnostic[];
  },
): string {
  const { range, totals } = report;
  const out: string[] = [];
  out.push("## Campaign status", "");
  out.push(
    `${plural(totals.projects, "project")} as of ${report.asOf.replace("T", " ").replace(/\.\d+Z$|Z$/, "")} UTC (the API's clock); statistics of the projects updated from ${range.since} to ${range.until}.`,
  );
  for (const group of report.organizations) {
    const name =
      group.organizationId === null
        ? "Projects that could not be read"
        : escapeMarkdown(group.organizationName ?? group.organizationId);
    out.push("", `### ${name}`, "", HEADER, ALIGN);
    for (const p of group.projects) out.push(projectRow(p));
    out.push(totalRow(`Total, ${plural(group.totals.projects, "project")}`, group.totals));
  }
  if (report.organizations.length > 1) {
    out.push("", "### All organizations", "", HEADER, ALIGN);
    out.push(totalRow(`Total, ${plural(totals.projects, "project")}`, totals));
  }
  if (report.projects.length === 0) out.push("", "No project selected.");
  out.push(
    "",
    `Delivery = delivered / sent, failure = failed / sent, opt-out = opt-outs / delivered, $/delivered = cost / delivered; totals recompute them from their sums. ${UNKNOWN} unknown, ${NO_RATE} no rate (nothing sent or delivered).`,
  );
  if (totals.withoutStatistics > 0)
    out.push(
      "",
      `The totals leave out the counters of ${plural(totals.withoutStatistics, "project")} without statistics in the range.`,
    );
  const emailPart = renderEmailStatusMarkdown(email?.campaigns);
  if (emailPart !== "") out.push(emailPart);
  const shown = [...report.diagnostics, ...(email?.diagnostics ?? [])].filter((d) => d.severity !== "info");
  if (shown.length > 0) out.push("", renderDiagnosticsMarkdown(shown));
  return `${out.join("\n")}\n`;
}
