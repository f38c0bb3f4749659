/**
 * `campaignctl results --json`: one document (schemas/results-result.schema.json). Money is dollars
 * as a decimal string with 4 decimals, exact (summed in ten-thousandths); rates are fractions rounded
 * half up to 4 decimals, null without a denominator; the cost per reply is dollars with 4 decimals.
 * Pure.
 */

import { compareDiagnostics } from "../diagnostics/diagnostic.js";
import { diagnosticJson } from "../diagnostics/json.js";
import type { ResultsFigures } from "../results/movement.js";
import type { ResultsGroup, ResultsRates, ResultsReport } from "../results/report.js";
import { e4ToDecimal } from "../status/money.js";
import { type Fraction, rounded, scaled } from "../text/fraction.js";
import { experimentsJson } from "./experiments-view.js";

/** The version of the document. */
export const RESULTS_FORMAT_VERSION = 1;

const rate = (f: Fraction | null): number | null => (f === null ? null : rounded(f, 4));

export function figuresJson(f: ResultsFigures) {
  return {
    sent: f.sent,
    delivered: f.delivered,
    failed: f.failed,
    opted_out: f.optedOut,
    replies: f.replies,
    clicks: f.clicks,
    unique_clicks: f.uniqueClicks,
    cost: e4ToDecimal(f.costE4),
  };
}

export function ratesJson(r: ResultsRates) {
  return {
    delivery_rate: rate(r.delivery),
    reply_rate: rate(r.reply),
    opt_out_rate: rate(r.optOut),
    click_rate: rate(r.click),
    cost_per_reply: r.costPerReplyE4 === null ? null : e4ToDecimal(scaled(r.costPerReplyE4, 0)),
  };
}

function groupJson(g: ResultsGroup, report: ResultsReport) {
  return {
    key: g.key,
    label: g.label,
    projects: g.projects,
    ...figuresJson(g.figures),
    ...ratesJson(g.rates),
    trend: report.period.buckets.map((b, i) => ({
      start: b.start,
      end: b.end,
      ...figuresJson(g.trend[i] ?? g.figures),
    })),
  };
}

export function renderResultsJson(r: ResultsReport): string {
  const diagnostics = [...r.diagnostics].sort(compareDiagnostics);
  const document = {
    format_version: RESULTS_FORMAT_VERSION,
    ok: !diagnostics.some((d) => d.severity === "error"),
    store: r.store,
    snapshots_read: r.snapshotsRead,
    period: {
      since: r.period.since,
      until: r.period.until,
      every: r.period.every,
    },
    by: { kind: r.by.kind, label_key: r.by.labelKey ?? null },
    groups: r.groups.map((g) => groupJson(g, r)),
    total: groupJson(r.total, r),
    diagnostics: diagnostics.map(diagnosticJson),
    ...(r.experiments === undefined ? {} : { experiments: experimentsJson(r.experiments) }),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
