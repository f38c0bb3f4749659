/**
 * `campaignctl results --html DIR`: the results as charts in a gallery page (docs/results.md
 * "Charts"), one self-contained HTML document like the preview gallery's (inline CSS, no script,
 * nothing loaded: the gallery's Content-Security-Policy). It shows the period's figures per group as
 * a table, the total's trend as column charts (sends, replies, opt-outs, cost per bucket), and each
 * group's sends and replies as horizontal bars. Every chart says its values in words (`role="img"`
 * with a label, and a table under it): colour and height are never the only signal. Pure; all user
 * text is escaped.
 */
import type { ResultsFigures } from "../results/movement.js";
import type { ResultsReport } from "../results/report.js";
import { GALLERY_CSP } from "./gallery/page.js";
import { escapeHtml } from "./html-escape.js";
import {
  groupCells,
  groupHeading,
  periodWords,
  RESULTS_COLUMNS,
  type ResultsColumnKey,
  resultsNotes,
} from "./results-cells.js";
import { countCell, dollarCell } from "./status-cells.js";

const CSS = `
body{margin:0;font:15px/1.45 "DejaVu Sans",system-ui,sans-serif;color:#1f2328;background:#fff}
.page{max-width:1100px;margin:0 auto;padding:16px}
h1{font-size:24px;margin:8px 0}h2{font-size:19px;margin:24px 0 8px}
table{border-collapse:collapse;margin:8px 0;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #d0d7de;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
.scroll{overflow-x:auto}
.chart{display:flex;align-items:flex-end;gap:2px;height:160px;border-bottom:2px solid #57606a;padding:0 2px;margin:8px 0 2px}
.col{flex:1 1 0;min-width:3px;background:#0969da;position:relative}
.col.zero{background:transparent}
.axis{display:flex;justify-content:space-between;font-size:12px;color:#57606a}
.bars{display:grid;grid-template-columns:minmax(120px,30%) 1fr;gap:4px 8px;align-items:center}
.bar{height:14px;background:#0969da;min-width:1px}.bar.replies{background:#8250df}
.label{overflow-wrap:anywhere}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:8px 24px}
figure{margin:0}figcaption{font-weight:bold}
.notes{color:#57606a;font-size:13px}
@media print{.chart .col{print-color-adjust:exact;-webkit-print-color-adjust:exact}}
`;

const num = (n: number): string => String(Math.round(n * 100) / 100);

interface Metric {
  readonly title: string;
  readonly pick: (f: ResultsFigures) => number;
  readonly show: (n: number) => string;
}

const METRICS: readonly Metric[] = [
  { title: "Sent", pick: (f) => f.sent, show: countCell },
  { title: "Replies", pick: (f) => f.replies, show: countCell },
  { title: "Opt-outs", pick: (f) => f.optedOut, show: countCell },
  { title: "Cost", pick: (f) => f.costE4, show: (n) => dollarCell(n, 2) },
];

function columnChart(r: ResultsReport, m: Metric): string {
  const values = r.total.trend.map(m.pick);
  const max = Math.max(0, ...values);
  const buckets = r.period.buckets;
  const words = buckets.map((b, i) => `${b.start}: ${m.show(values[i] ?? 0)}`).join("; ");
  const cols = buckets
    .map((b, i) => {
      const v = values[i] ?? 0;
      const pct = max === 0 ? 0 : (v / max) * 100;
      return `<div class="col${v <= 0 ? " zero" : ""}" style="height:${num(pct)}%" title="${escapeHtml(`${b.start}..${b.end}: ${m.show(v)}`)}" data-value="${v}"></div>`;
    })
    .join("");
  const first = buckets[0]?.start ?? r.period.since;
  const last = buckets[buckets.length - 1]?.end ?? r.period.until;
  return `<figure class="trend" data-metric="${escapeHtml(m.title)}">
<figcaption>${escapeHtml(m.title)} by ${r.period.every} (total ${escapeHtml(m.show(m.pick(r.total.figures)))})</figcaption>
<div class="chart" role="img" aria-label="${escapeHtml(`${m.title} by ${r.period.every}: ${words}`)}">${cols}</div>
<div class="axis"><span>${escapeHtml(first)}</span><span>${escapeHtml(last)}</span></div>
</figure>`;
}

function groupBars(r: ResultsReport): string {
  const max = Math.max(0, ...r.groups.map((g) => g.figures.sent));
  const rows = r.groups
    .map((g) => {
      const sent = max === 0 ? 0 : (g.figures.sent / max) * 100;
      const replies = max === 0 ? 0 : (g.figures.replies / max) * 100;
      const words = `${g.label}: ${countCell(g.figures.sent)} sent, ${countCell(g.figures.replies)} replies`;
      return `<div class="label">${escapeHtml(g.label)}</div><div role="img" aria-label="${escapeHtml(words)}"><div class="bar sent" style="width:${num(sent)}%"></div><div class="bar replies" style="width:${num(replies)}%"></div></div>`;
    })
    .join("\n");
  return `<h2 id="by-group">Sent and replies by ${escapeHtml(groupHeading(r.by).toLowerCase())}</h2>
<p class="notes">Blue: sent; purple: replies (to the same scale).</p>
<div class="bars">${rows}</div>`;
}

function groupTable(r: ResultsReport): string {
  const keys = RESULTS_COLUMNS.map((c) => c.key) as ResultsColumnKey[];
  const head = `<tr><th scope="col">${escapeHtml(groupHeading(r.by))}</th>${RESULTS_COLUMNS.map((c) => `<th scope="col">${c.header}</th>`).join("")}</tr>`;
  const body = [...r.groups, ...(r.groups.length === 1 ? [] : [r.total])]
    .map((g) => {
      const cells = groupCells(g);
      return `<tr><th scope="row">${escapeHtml(g.label)}</th>${keys.map((k) => `<td>${escapeHtml(cells[k])}</td>`).join("")}</tr>`;
    })
    .join("\n");
  return `<div class="scroll"><table aria-label="Results by ${escapeHtml(groupHeading(r.by).toLowerCase())}">${head}\n${body}</table></div>`;
}

export function renderResultsHtml(r: ResultsReport): string {
  const title = `Campaign results, ${r.period.since} to ${r.period.until}`;
  const body =
    r.groups.length === 0
      ? "<p>Nothing was recorded in the period.</p>"
      : `${groupTable(r)}
<h2 id="trend">Trend</h2>
<div class="charts">${METRICS.map((m) => columnChart(r, m)).join("\n")}</div>
${groupBars(r)}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${GALLERY_CSP}">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<div class="page">
<header><h1>Campaign results</h1><p>${escapeHtml(periodWords(r))}, by ${escapeHtml(groupHeading(r.by).toLowerCase())}.</p></header>
<main>
${body}
${resultsNotes(r)
  .map((n) => `<p class="notes">${escapeHtml(n)}</p>`)
  .join("\n")}
</main>
<footer class="notes">Written by campaignctl results --html. Static page: no scripts, nothing loaded from the network.</footer>
</div>
</body>
</html>
`;
}
