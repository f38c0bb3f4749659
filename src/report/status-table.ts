/**
 * `campaignctl status` on a terminal: one table, a header row, each organization's name followed
 * by its projects (and its total row when there are several organizations), then the overall
 * total. It fits the given width: columns are dropped in a fixed order (the least asked-for
 * first), the project column is shortened (with `…`), and a note names what was left out. Without a
 * width (output not to a terminal) every column is shown. Pure.
 */
import type { ProjectFigures } from "../status/figures.js";
import type { StatusReport } from "../status/report.js";
import type { Totals } from "../status/totals.js";
import {
  countCell,
  displayWidth,
  dollarCell,
  groupThousands,
  NO_RATE,
  pad,
  percentCell,
  perDeliveredCell,
  projectLabel,
  truncate,
  UNKNOWN,
  visibleText,
} from "./status-cells.js";
import { wrapText } from "./text-wrap.js";

export type ColumnKey =
  | "project"
  | "status"
  | "recipients"
  | "sent"
  | "delivered"
  | "failed"
  | "optedOut"
  | "replies"
  | "clicks"
  | "delivery"
  | "failure"
  | "optOut"
  | "cost"
  | "estimate"
  | "perDelivered";

interface Column {
  readonly key: ColumnKey;
  readonly header: string;
  readonly align: "left" | "right";
}

const STATUS_COLUMN: Column = { key: "status", header: "STATUS", align: "left" };

/** The columns in display order. */
export const STATUS_COLUMNS: readonly Column[] = [
  { key: "project", header: "PROJECT", align: "left" },
  STATUS_COLUMN,
  { key: "recipients", header: "RECIPIENTS", align: "right" },
  { key: "sent", header: "SENT", align: "right" },
  { key: "delivered", header: "DELIVERED", align: "right" },
  { key: "failed", header: "FAILED", align: "right" },
  { key: "optedOut", header: "OPT-OUTS", align: "right" },
  { key: "replies", header: "REPLIES", align: "right" },
  { key: "clicks", header: "CLICKS", align: "right" },
  { key: "delivery", header: "DELIVERY", align: "right" },
  { key: "failure", header: "FAILURE", align: "right" },
  { key: "optOut", header: "OPT-OUT", align: "right" },
  { key: "cost", header: "COST", align: "right" },
  { key: "estimate", header: "ESTIMATE", align: "right" },
  { key: "perDelivered", header: "$/DELIVERED", align: "right" },
];

/** Dropped first, in this order, while the table is too wide. */
const OPTIONAL_DROPS: readonly ColumnKey[] = [
  "clicks",
  "replies",
  "recipients",
  "estimate",
  "optedOut",
  "failed",
  "delivered",
  "perDelivered",
];
/** Dropped only after the project column is as short as it goes, in this order. */
const CORE_DROPS: readonly ColumnKey[] = ["cost", "optOut", "failure", "sent", "delivery", "status"];

/** The project column's widths: longest shown before anything else gives way, preferred floor, floor. */
const PROJECT_MAX = 40;
const PROJECT_SOFT_MIN = 20;
const PROJECT_MIN = 12;
const GAP = "  ";

export interface StatusTableOptions {
  /** The terminal's width in columns; null: no limit (every column, full names). */
  readonly width: number | null;
}

type Cells = Readonly<Record<ColumnKey, string>>;

function projectCells(p: ProjectFigures): Cells {
  const known = p.source === "statistics";
  return {
    project: visibleText(projectLabel(p)),
    status: p.status ?? UNKNOWN,
    recipients: countCell(p.recipients),
    sent: countCell(p.sent),
    delivered: countCell(p.delivered),
    failed: countCell(p.failed),
    optedOut: countCell(p.optedOut),
    replies: countCell(p.replies),
    clicks: countCell(p.clicks),
    delivery: percentCell(p.rates.delivery, known),
    failure: percentCell(p.rates.failure, known),
    optOut: percentCell(p.rates.optOut, known),
    cost: dollarCell(p.actualCostE4, 2),
    estimate: dollarCell(p.estimatedCostE4, 2),
    perDelivered: perDeliveredCell(p.rates.costPerDeliveredE4, p.actualCostE4 !== null),
  };
}

function totalCells(label: string, t: Totals): Cells {
  // Counts are unknown only when no project of the total has statistics.
  const known = t.projects === 0 || t.withoutStatistics < t.projects;
  const count = (n: number): string => (known ? countCell(n) : UNKNOWN);
  return {
    project: label,
    status: "",
    recipients: countCell(t.recipients),
    sent: count(t.sent),
    delivered: count(t.delivered),
    failed: count(t.failed),
    optedOut: count(t.optedOut),
    replies: count(t.replies),
    clicks: count(t.clicks),
    delivery: percentCell(t.rates.delivery, known),
    failure: percentCell(t.rates.failure, known),
    optOut: percentCell(t.rates.optOut, known),
    cost: t.withoutActualCost === t.projects && t.projects > 0 ? UNKNOWN : dollarCell(t.actualCostE4, 2),
    estimate: dollarCell(t.estimatedCostE4, 2),
    perDelivered: perDeliveredCell(t.rates.costPerDeliveredE4, t.withoutActualCost < t.projects),
  };
}

type Line =
  | { readonly kind: "heading"; readonly text: string }
  | { readonly kind: "row"; readonly cells: Cells };

function plural(n: number, word: string): string {
  return `${groupThousands(n)} ${word}${n === 1 ? "" : "s"}`;
}

export function renderStatusTable(report: StatusReport, options: StatusTableOptions): string {
  const lines: Line[] = [];
  const several = report.organizations.length > 1;
  for (const group of report.organizations) {
    const name =
      group.organizationId === null
        ? "(projects that could not be read)"
        : `${group.organizationName ?? group.organizationId}`;
    lines.push({ kind: "heading", text: visibleText(name) });
    for (const p of group.projects) lines.push({ kind: "row", cells: projectCells(p) });
    if (several && group.organizationId !== null)
      lines.push({
        kind: "row",
        cells: totalCells(`  total, ${plural(group.totals.projects, "project")}`, group.totals),
      });
  }
  const orgCount = report.organizations.filter((g) => g.organizationId !== null).length;
  const overallLabel = several
    ? `TOTAL, ${plural(report.totals.projects, "project")}, ${plural(orgCount, "organization")}`
    : `TOTAL, ${plural(report.totals.projects, "project")}`;
  if (report.projects.length > 0) lines.push({ kind: "row", cells: totalCells(overallLabel, report.totals) });

  const rows = lines.flatMap((l) => (l.kind === "row" ? [l.cells] : []));
  const natural = new Map<ColumnKey, number>(
    STATUS_COLUMNS.map((c) => [
      c.key,
      Math.max(displayWidth(c.header), ...rows.map((r) => displayWidth(r[c.key]))),
    ]),
  );
  // Total rows (no status) run on into the status column: they need less of the project column.
  const statusWidth = natural.get("status") ?? 0;
  const projectWidth = Math.max(
    displayWidth("PROJECT"),
    ...rows.map((r) => displayWidth(r.project) - (r.status === "" ? GAP.length + statusWidth : 0)),
  );
  natural.set("project", options.width === null ? projectWidth : Math.min(projectWidth, PROJECT_MAX));
  const layout = fitColumns(natural, options.width);

  const out: string[] = [];
  if (report.projects.length === 0) out.push("No project selected.");
  else {
    const shown = STATUS_COLUMNS.filter((c) => layout.widths.has(c.key));
    const widthOf = (key: ColumnKey): number => layout.widths.get(key) ?? 0;
    // A total row's label may run on into the status column, which it leaves empty.
    const render = (cells: (c: Column) => string): string => {
      const spans = cells(STATUS_COLUMN) === "" && layout.widths.has("status");
      return shown
        .flatMap((c) => {
          if (spans && c.key === "status") return [];
          const width =
            spans && c.key === "project"
              ? widthOf("project") + GAP.length + widthOf("status")
              : widthOf(c.key);
          return [pad(truncate(cells(c), width), width, c.align)];
        })
        .join(GAP)
        .trimEnd();
    };
    out.push(render((c) => c.header));
    const tableWidth =
      [...layout.widths.values()].reduce((a, w) => a + w, 0) + GAP.length * (shown.length - 1);
    for (const line of lines)
      out.push(line.kind === "heading" ? truncate(line.text, tableWidth) : render((c) => line.cells[c.key]));
  }
  const wrapAt = options.width ?? Number.POSITIVE_INFINITY;
  out.push("", ...notes(report, layout.hidden).map((n) => wrapText(n, wrapAt, "", "")));
  return `${out.join("\n")}\n`;
}

interface Layout {
  readonly widths: ReadonlyMap<ColumnKey, number>;
  readonly hidden: readonly ColumnKey[];
}

/** Which columns fit in `width`, and how wide each is (see the module comment for the order). */
export function fitColumns(natural: ReadonlyMap<ColumnKey, number>, width: number | null): Layout {
  const widths = new Map(natural);
  const hidden: ColumnKey[] = [];
  if (width === null) return { widths, hidden };
  const total = (): number =>
    [...widths.values()].reduce((a, w) => a + w, 0) + GAP.length * (widths.size - 1);
  const shrinkProject = (floor: number): void => {
    const project = widths.get("project") ?? 0;
    const excess = total() - width;
    if (excess > 0 && project > floor) widths.set("project", Math.max(floor, project - excess));
  };
  const drop = (order: readonly ColumnKey[]): void => {
    for (const key of order) {
      if (total() <= width) return;
      if (widths.delete(key)) hidden.push(key);
    }
  };
  shrinkProject(PROJECT_SOFT_MIN);
  drop(OPTIONAL_DROPS);
  shrinkProject(PROJECT_MIN);
  drop(CORE_DROPS);
  return { widths, hidden };
}

function notes(report: StatusReport, hidden: readonly ColumnKey[]): string[] {
  const out: string[] = [];
  const { range } = report;
  out.push(
    `Statistics of the projects updated from ${range.since} to ${range.until} (GET /projects/stats), as of ${report.asOf.replace("T", " ").replace(/\.\d+Z$|Z$/, "")} UTC on the API's clock.`,
  );
  out.push(
    "DELIVERY = delivered / sent, FAILURE = failed / sent, OPT-OUT = opt-outs / delivered, $/DELIVERED = cost / delivered; totals recompute them from their sums.",
  );
  const marks: string[] = [];
  if (
    report.projects.some((p) => p.source !== "statistics") ||
    (!report.estimates && report.projects.length > 0)
  )
    marks.push(`${UNKNOWN} unknown`);
  if (report.projects.some((p) => p.source === "statistics" && (p.sent === 0 || p.delivered === 0)))
    marks.push(`${NO_RATE} no rate (nothing sent or delivered)`);
  if (marks.length > 0) out.push(`Marks: ${marks.join("; ")}.`);
  const t = report.totals;
  if (t.withoutStatistics > 0)
    out.push(
      `The totals leave out the counters of ${plural(t.withoutStatistics, "project")} without statistics in the range.`,
    );
  if (!report.estimates) out.push("Estimates were not read (--no-estimate).");
  if (hidden.length > 0) {
    const names = STATUS_COLUMNS.filter((c) => hidden.includes(c.key)).map((c) => c.header);
    out.push(
      `Hidden to fit the terminal: ${names.join(", ")} (a wider terminal, --width, --json or --format csv show them).`,
    );
  }
  return out;
}
