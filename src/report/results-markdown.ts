/**
 * `campaignctl results --markdown FILE`: a `## Campaign results` section for a pull request or a
 * report: the period, one table of the groups and the total, the total's trend, the notes, and the
 * warnings as a list. Names are escaped (a `|` cannot break the table, `@team` or `#12` cannot ping
 * anyone). Pure.
 */
import type { ResultsReport } from "../results/report.js";
import { escapeMarkdown } from "./markdown-escape.js";
import {
  groupCells,
  groupHeading,
  periodWords,
  RESULTS_COLUMNS,
  type ResultsColumnKey,
  resultsNotes,
  sparkline,
} from "./results-cells.js";
import { countCell, dollarCell, visibleText } from "./status-cells.js";

const row = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;

export function renderResultsMarkdown(r: ResultsReport): string {
  const out = [
    "## Campaign results",
    "",
    `${escapeMarkdown(periodWords(r))}, by ${escapeMarkdown(groupHeading(r.by).toLowerCase())}.`,
    "",
  ];
  const keys = RESULTS_COLUMNS.map((c) => c.key) as ResultsColumnKey[];
  if (r.groups.length === 0) out.push("Nothing was recorded in the period.", "");
  else {
    out.push(row([groupHeading(r.by), ...RESULTS_COLUMNS.map((c) => c.header), "TREND (SENT)"]));
    out.push(row(["---", ...RESULTS_COLUMNS.map(() => "---:"), "---"]));
    for (const g of [...r.groups, ...(r.groups.length === 1 ? [] : [r.total])]) {
      const cells = groupCells(g);
      const label = escapeMarkdown(visibleText(g.label).replace(/\uFFFD/g, " "));
      out.push(
        row([
          g === r.total ? `**${label}**` : label,
          ...keys.map((k) => cells[k]),
          sparkline(g.trend, (f) => f.sent),
        ]),
      );
    }
    out.push("", `### Trend by ${r.period.every}`, "");
    out.push(row(["From", "To", "Sent", "Delivered", "Replies", "Opt-outs", "Clicks", "Cost"]));
    out.push(row(["---", "---", "---:", "---:", "---:", "---:", "---:", "---:"]));
    r.period.buckets.forEach((b, i) => {
      const f = r.total.trend[i];
      if (f === undefined) return;
      out.push(
        row([
          b.start,
          b.end,
          countCell(f.sent),
          countCell(f.delivered),
          countCell(f.replies),
          countCell(f.optedOut),
          countCell(f.clicks),
          dollarCell(f.costE4, 2),
        ]),
      );
    });
    out.push("");
  }
  for (const note of resultsNotes(r)) out.push(escapeMarkdown(note), "");
  const problems = r.diagnostics.filter((d) => d.severity !== "info");
  if (problems.length > 0) {
    out.push("### Warnings", "");
    for (const d of problems) out.push(`- ${escapeMarkdown(`${d.code}: ${d.message}`)}`);
    out.push("");
  }
  return `${out.join("\n")}`;
}
