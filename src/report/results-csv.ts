/**
 * `campaignctl results --format csv`: one table for a spreadsheet, RFC 4180 (as `status --format
 * csv`: CRLF, quoted fields, formulas defused with a leading `'`). Rows: each group over the period
 * (`level` = group), the total (`total`), then each group's trend bucket by bucket (`group-trend`)
 * and the total's (`total-trend`), `from` and `to` the days each row covers. Money in dollars with
 * 4 decimals, rates as fractions with 4 decimals; a rate without denominator is an empty field. Pure.
 */

import type { ResultsFigures } from "../results/movement.js";
import { type ResultsGroup, type ResultsReport, ratesOf } from "../results/report.js";
import { figuresJson, ratesJson } from "./results-json.js";
import { spreadsheetText } from "./spreadsheet-text.js";
import { csvField } from "./status-csv.js";

export const RESULTS_CSV_HEADER = [
  "level",
  "group_key",
  "group",
  "from",
  "to",
  "projects",
  "sent",
  "delivered",
  "failed",
  "opted_out",
  "replies",
  "clicks",
  "unique_clicks",
  "cost",
  "delivery_rate",
  "reply_rate",
  "opt_out_rate",
  "click_rate",
  "cost_per_reply",
] as const;

/** Text defused for spreadsheets (spreadsheet-text.ts). */
const text = (value: string): string => spreadsheetText(value);

function line(
  level: string,
  g: ResultsGroup,
  from: string,
  to: string,
  f: ResultsFigures,
  projects: number | null,
): string {
  const figures = figuresJson(f);
  const rates = ratesJson(ratesOf(f));
  return [
    level,
    text(g.key),
    text(g.label),
    from,
    to,
    projects,
    figures.sent,
    figures.delivered,
    figures.failed,
    figures.opted_out,
    figures.replies,
    figures.clicks,
    figures.unique_clicks,
    figures.cost,
    rates.delivery_rate,
    rates.reply_rate,
    rates.opt_out_rate,
    rates.click_rate,
    rates.cost_per_reply,
  ]
    .map((v) => csvField(v))
    .join(",");
}

export function renderResultsCsv(r: ResultsReport): string {
  const { since, until, buckets } = r.period;
  const rows = [RESULTS_CSV_HEADER.join(",")];
  for (const g of r.groups) rows.push(line("group", g, since, until, g.figures, g.projects));
  rows.push(line("total", r.total, since, until, r.total.figures, r.total.projects));
  for (const g of [...r.groups, r.total])
    for (const [i, b] of buckets.entries())
      rows.push(
        line(g === r.total ? "total-trend" : "group-trend", g, b.start, b.end, g.trend[i] ?? g.figures, null),
      );
  return `${rows.join("\r\n")}\r\n`;
}
