/**
 * `status --format csv`: one table for a spreadsheet, RFC 4180 (a header row, CRLF line ends, a
 * field quoted when it holds a comma, a double quote, CR or LF, its quotes doubled). One row per
 * project, then one per organization (`level` = organization) and one for the overall total
 * (`level` = total). Money in dollars with 4 decimals and rates as fractions with 4 decimals, so a
 * spreadsheet reads them as numbers; an unknown figure or a rate without denominator is an empty
 * field. A text field that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`,
 * tab or CR) gets a leading `'` (spreadsheet-text.ts), the API's ids and statuses as the names. When the files describe email campaigns, the email columns and
 * rows follow (`email-status-csv.ts`). Pure.
 */
import type { EmailCampaignFigures } from "../email/figures.js";
import type { ProjectFigures, Rates } from "../status/figures.js";
import { e4ToDecimal } from "../status/money.js";
import type { StatusReport } from "../status/report.js";
import type { Totals } from "../status/totals.js";
import { type Fraction, scaled } from "../text/fraction.js";
import { EMAIL_STATUS_CSV_COLUMNS, emailCsvRow } from "./email-status-csv.js";
import { spreadsheetText } from "./spreadsheet-text.js";

export const STATUS_CSV_HEADER = [
  "level",
  "organization_id",
  "organization",
  "project_id",
  "address",
  "name",
  "status",
  "source",
  "projects",
  "projects_without_statistics",
  "recipients",
  "sent",
  "delivered",
  "failed",
  "opted_out",
  "replies",
  "clicks",
  "unique_clicks",
  "actual_cost",
  "estimated_cost",
  "delivery_rate",
  "failure_rate",
  "opt_out_rate",
  "cost_per_delivered",
] as const;

type Field = string | number | null;

/** A field as RFC 4180 writes it. */
export function csvField(value: Field): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Text defused for spreadsheets (spreadsheet-text.ts). */
const text = spreadsheetText;

/** A fraction as a decimal with 4 places ("0.9737"), rounded half up. */
function fourPlaces(f: Fraction | null): string | null {
  if (f === null) return null;
  const n = scaled(f, 4);
  return `${Math.floor(n / 10_000)}.${String(n % 10_000).padStart(4, "0")}`;
}

function rateFields(r: Rates): Field[] {
  return [
    fourPlaces(r.delivery),
    fourPlaces(r.failure),
    fourPlaces(r.optOut),
    r.costPerDeliveredE4 === null ? null : e4ToDecimal(scaled(r.costPerDeliveredE4, 0)),
  ];
}

const money = (e4: number | null): string | null => (e4 === null ? null : e4ToDecimal(e4));

function projectRow(p: ProjectFigures): Field[] {
  return [
    "project",
    text(p.organizationId),
    text(p.organizationName),
    text(p.id),
    p.address,
    text(p.name),
    text(p.status),
    p.source,
    1,
    p.source === "statistics" ? 0 : 1,
    p.recipients,
    p.sent,
    p.delivered,
    p.failed,
    p.optedOut,
    p.replies,
    p.clicks,
    p.uniqueClicks,
    money(p.actualCostE4),
    money(p.estimatedCostE4),
    ...rateFields(p.rates),
  ];
}

function totalRow(
  level: "organization" | "total",
  organizationId: string | null,
  organization: string | null,
  t: Totals,
): Field[] {
  return [
    level,
    text(organizationId),
    text(organization),
    null,
    null,
    null,
    null,
    null,
    t.projects,
    t.withoutStatistics,
    t.recipients,
    t.sent,
    t.delivered,
    t.failed,
    t.optedOut,
    t.replies,
    t.clicks,
    t.uniqueClicks,
    e4ToDecimal(t.actualCostE4),
    money(t.estimatedCostE4),
    ...rateFields(t.rates),
  ];
}

/**
 * `email`: the figures of the email campaigns the files describe; undefined when they describe none
 * (no email columns). Empty (early access, not found): the email columns without email rows.
 */
export function renderStatusCsv(report: StatusReport, email?: readonly EmailCampaignFigures[]): string {
  const rows: Field[][] = [[...STATUS_CSV_HEADER]];
  for (const p of report.projects) rows.push(projectRow(p));
  for (const g of report.organizations)
    rows.push(totalRow("organization", g.organizationId, g.organizationName, g.totals));
  rows.push(totalRow("total", null, null, report.totals));
  if (email !== undefined) {
    const header = [...STATUS_CSV_HEADER, ...EMAIL_STATUS_CSV_COLUMNS];
    rows[0] = header;
    for (let i = 1; i < rows.length; i++) rows[i]?.push(...EMAIL_STATUS_CSV_COLUMNS.map(() => null));
    for (const c of email) {
      const row = emailCsvRow(c, text);
      rows.push(header.map((column) => row.get(column) ?? null));
    }
  }
  return rows.map((r) => `${r.map(csvField).join(",")}\r\n`).join("");
}
