/**
 * `campaignctl results` on a terminal: a heading with the period, one row per group and the total,
 * each with its trend of sends as a sparkline, then the total's trend bucket by bucket and the notes.
 * Every column is shown (pipe it to `less -S` when it is wider than the terminal). Control
 * characters in names are shown as `�`. Pure.
 */
import type { ResultsReport } from "../results/report.js";
import {
  groupCells,
  groupHeading,
  periodWords,
  RESULTS_COLUMNS,
  type ResultsColumnKey,
  resultsNotes,
  sparkline,
} from "./results-cells.js";
import { countCell, displayWidth, dollarCell, pad, visibleText } from "./status-cells.js";

function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  leftColumns: number,
): string[] {
  const widths = header.map((h, i) =>
    Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ""))),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => pad(c, widths[i] ?? 0, i < leftColumns ? "left" : "right"))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

export function renderResultsTable(r: ResultsReport): string {
  const out: string[] = [`Results ${periodWords(r)}, by ${groupHeading(r.by).toLowerCase()}`, ""];
  const keys = RESULTS_COLUMNS.map((c) => c.key) as ResultsColumnKey[];
  const header = [groupHeading(r.by), ...RESULTS_COLUMNS.map((c) => c.header), "TREND (SENT)"];
  const rows = [...r.groups, ...(r.groups.length === 1 ? [] : [r.total])].map((g) => {
    const cells = groupCells(g);
    return [visibleText(g.label), ...keys.map((k) => cells[k]), sparkline(g.trend, (f) => f.sent)];
  });
  if (r.groups.length === 0) out.push("Nothing was recorded in the period.");
  else out.push(...table(header, rows, 1));
  if (r.groups.length > 0) {
    out.push("", `Trend of the total, by ${r.period.every}:`);
    const trendRows = r.period.buckets.map((b, i) => {
      const f = r.total.trend[i];
      const when = b.start === b.end ? b.start : `${b.start}..${b.end}`;
      return f === undefined
        ? [when]
        : [
            when,
            countCell(f.sent),
            countCell(f.delivered),
            countCell(f.replies),
            countCell(f.optedOut),
            countCell(f.clicks),
            dollarCell(f.costE4, 2),
          ];
    });
    out.push(
      ...table(["FROM..TO", "SENT", "DELIVERED", "REPLIES", "OPT-OUTS", "CLICKS", "COST"], trendRows, 1),
    );
  }
  out.push("", ...resultsNotes(r));
  return `${out.join("\n")}\n`;
}
