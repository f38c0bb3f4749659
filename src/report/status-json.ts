/**
 * The `status --json` document (`schemas/status-result.schema.json`, `format_version` 1): every
 * project's figures, the totals per organization and overall, the range read and the requests it
 * took. Money is a decimal string with 4 decimals (dollars, exact: summed in ten-thousandths); rates
 * are fractions from 0 rounded half up to 4 decimals, null without a denominator; a figure that is
 * not known is null. Pure.
 */

import { compareDiagnostics } from "../diagnostics/diagnostic.js";
import { type DiagnosticJson, diagnosticJson } from "../diagnostics/json.js";
import type { EmailCampaignFigures } from "../email/figures.js";
import type { FigureSource, ProjectFigures, Rates } from "../status/figures.js";
import { e4ToDecimal } from "../status/money.js";
import type { StatusReport } from "../status/report.js";
import type { Totals } from "../status/totals.js";
import { type Fraction, rounded, scaled } from "../text/fraction.js";
import { experimentsJson } from "./experiments-view.js";
import type { statusRepliesJson } from "./status-replies.js";

export const STATUS_FORMAT_VERSION = 1;

/** The rates of a project or a total, as JSON. */
export interface RatesJson {
  readonly delivery_rate: number | null;
  readonly failure_rate: number | null;
  readonly opt_out_rate: number | null;
  readonly cost_per_delivered: string | null;
}

export interface StatusProjectJson extends RatesJson {
  readonly id: string;
  readonly address: string | null;
  readonly name: string | null;
  readonly organization_id: string | null;
  readonly organization_name: string | null;
  readonly status: string | null;
  readonly source: FigureSource;
  readonly recipients: number | null;
  readonly sent: number | null;
  readonly delivered: number | null;
  readonly failed: number | null;
  readonly opted_out: number | null;
  readonly replies: number | null;
  readonly clicks: number | null;
  readonly unique_clicks: number | null;
  readonly actual_cost: string | null;
  readonly estimated_cost: string | null;
}

export interface StatusTotalsJson extends RatesJson {
  readonly projects: number;
  readonly projects_without_statistics: number;
  readonly projects_without_actual_cost: number;
  readonly projects_without_estimate: number;
  readonly recipients: number;
  readonly sent: number;
  readonly delivered: number;
  readonly failed: number;
  readonly opted_out: number;
  readonly replies: number;
  readonly clicks: number;
  readonly unique_clicks: number;
  readonly actual_cost: string;
  readonly estimated_cost: string | null;
}

/**
 * Invariants: `ok` is false iff `diagnostics` holds an error; `totals` are those of `projects`;
 * every project id is in exactly one organization's `projects`.
 */
export interface StatusJson {
  readonly format_version: 1;
  readonly ok: boolean;
  readonly as_of: string;
  readonly range: {
    readonly since: string;
    readonly until: string;
    readonly windows: readonly { readonly start_date: string; readonly end_date: string }[];
  };
  readonly selection: {
    readonly paths: readonly string[];
    readonly all: boolean;
    readonly organization: string | null;
  };
  readonly estimates: boolean;
  readonly projects: readonly StatusProjectJson[];
  readonly organizations: readonly {
    readonly organization_id: string | null;
    readonly organization_name: string | null;
    readonly projects: readonly string[];
    readonly totals: StatusTotalsJson;
  }[];
  readonly totals: StatusTotalsJson;
  readonly reads: {
    readonly stats_pages: number;
    readonly projects_read_by_id: number;
    readonly details_from_cache: number;
  };
  readonly diagnostics: readonly DiagnosticJson[];
}

function rate(f: Fraction | null): number | null {
  return f === null ? null : rounded(f, 4);
}

function ratesJson(r: Rates): RatesJson {
  return {
    delivery_rate: rate(r.delivery),
    failure_rate: rate(r.failure),
    opt_out_rate: rate(r.optOut),
    cost_per_delivered: r.costPerDeliveredE4 === null ? null : e4ToDecimal(scaled(r.costPerDeliveredE4, 0)),
  };
}

const money = (e4: number | null): string | null => (e4 === null ? null : e4ToDecimal(e4));

export function projectJson(p: ProjectFigures): StatusProjectJson {
  return {
    id: p.id,
    address: p.address,
    name: p.name,
    organization_id: p.organizationId,
    organization_name: p.organizationName,
    status: p.status,
    source: p.source,
    recipients: p.recipients,
    sent: p.sent,
    delivered: p.delivered,
    failed: p.failed,
    opted_out: p.optedOut,
    replies: p.replies,
    clicks: p.clicks,
    unique_clicks: p.uniqueClicks,
    actual_cost: money(p.actualCostE4),
    estimated_cost: money(p.estimatedCostE4),
    ...ratesJson(p.rates),
  };
}

export function totalsJson(t: Totals): StatusTotalsJson {
  return {
    projects: t.projects,
    projects_without_statistics: t.withoutStatistics,
    projects_without_actual_cost: t.withoutActualCost,
    projects_without_estimate: t.withoutEstimate,
    recipients: t.recipients,
    sent: t.sent,
    delivered: t.delivered,
    failed: t.failed,
    opted_out: t.optedOut,
    replies: t.replies,
    clicks: t.clicks,
    unique_clicks: t.uniqueClicks,
    actual_cost: e4ToDecimal(t.actualCostE4),
    estimated_cost: money(t.estimatedCostE4),
    ...ratesJson(t.rates),
  };
}

export function statusJson(report: StatusReport): StatusJson {
  const diagnostics = [...report.diagnostics].sort(compareDiagnostics);
  return {
    format_version: STATUS_FORMAT_VERSION,
    ok: !diagnostics.some((d) => d.severity === "error"),
    as_of: report.asOf,
    range: {
      since: report.range.since,
      until: report.range.until,
      windows: report.range.windows.map((w) => ({ start_date: w.startDate, end_date: w.endDate })),
    },
    selection: {
      paths: report.selection.paths,
      all: report.selection.all,
      organization: report.selection.organization,
    },
    estimates: report.estimates,
    projects: report.projects.map(projectJson),
    organizations: report.organizations.map((g) => ({
      organization_id: g.organizationId,
      organization_name: g.organizationName,
      projects: g.projects.map((p) => p.id),
      totals: totalsJson(g.totals),
    })),
    totals: totalsJson(report.totals),
    reads: {
      stats_pages: report.reads.statsPages,
      projects_read_by_id: report.reads.projectsReadById,
      details_from_cache: report.reads.detailsFromCache,
    },
    diagnostics: diagnostics.map(diagnosticJson),
  };
}

/**
 * The document, with the email campaigns' figures and the replies answered (the `replies` member,
 * `src/report/status-replies.ts`) when given.
 */
export function renderStatusJson(
  report: StatusReport,
  email?: { readonly campaigns: readonly EmailCampaignFigures[] },
  replies?: ReturnType<typeof statusRepliesJson>,
): string {
  const doc = {
    ...statusJson(report),
    ...(report.experiments === undefined ? {} : { experiments: experimentsJson(report.experiments) }),
    ...(email === undefined ? {} : { email: { campaigns: email.campaigns } }),
    ...(replies === undefined ? {} : { replies }),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
