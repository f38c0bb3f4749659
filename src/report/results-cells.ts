/**
 * What every results view shares (docs/results.md "Outputs"): the columns, each group's cells as
 * text (counts with thousands separators, rates as percentages, money in dollars), the group
 * column's heading, and the trend as a sparkline. Pure; money and rates come in as integers and
 * fractions, and are rounded only here, half up, as `status` rounds them.
 */
import type { ResultsFigures } from "../results/movement.js";
import type { GroupBy, ResultsGroup, ResultsReport } from "../results/report.js";
import { scaled } from "../text/fraction.js";
import { countCell, dollarCell, NO_RATE, percentCell } from "./status-cells.js";

/** The figure columns, in display order (the group column comes first, the trend last). */
export const RESULTS_COLUMNS = [
  { key: "projects", header: "PROJECTS" },
  { key: "sent", header: "SENT" },
  { key: "delivered", header: "DELIVERED" },
  { key: "delivery", header: "DELIVERY" },
  { key: "replies", header: "REPLIES" },
  { key: "reply", header: "REPLY RATE" },
  { key: "optedOut", header: "OPT-OUTS" },
  { key: "optOut", header: "OPT-OUT" },
  { key: "clicks", header: "CLICKS" },
  { key: "click", header: "CLICK RATE" },
  { key: "cost", header: "COST" },
  { key: "perReply", header: "$/REPLY" },
] as const;

export type ResultsColumnKey = (typeof RESULTS_COLUMNS)[number]["key"];

/** The group column's heading: what the groups are. */
export function groupHeading(by: GroupBy): string {
  switch (by.kind) {
    case "organization":
      return "ORGANIZATION";
    case "project":
      return "PROJECT";
    case "template":
      return "TEMPLATE";
    case "language":
      return "LANGUAGE";
    case "label":
      return `LABEL ${by.labelKey ?? ""}`.trim().toUpperCase();
  }
}

/** A group's cells, by column. */
export function groupCells(g: ResultsGroup): Record<ResultsColumnKey, string> {
  const f = g.figures;
  return {
    projects: countCell(g.projects),
    sent: countCell(f.sent),
    delivered: countCell(f.delivered),
    delivery: percentCell(g.rates.delivery, true),
    replies: countCell(f.replies),
    reply: percentCell(g.rates.reply, true),
    optedOut: countCell(f.optedOut),
    optOut: percentCell(g.rates.optOut, true),
    clicks: countCell(f.clicks),
    click: percentCell(g.rates.click, true),
    cost: dollarCell(f.costE4, 2),
    perReply: g.rates.costPerReplyE4 === null ? NO_RATE : dollarCell(scaled(g.rates.costPerReplyE4, 0), 2),
  };
}

const BARS = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] as const;
/** The widest sparkline: longer trends are drawn with neighbouring buckets summed. */
export const SPARKLINE_MAX = 32;

/** The trend of `pick` over the buckets as a sparkline (`·` for nothing), scaled to its own largest value. */
export function sparkline(trend: readonly ResultsFigures[], pick: (f: ResultsFigures) => number): string {
  const values = trend.map(pick);
  const per = Math.ceil(values.length / SPARKLINE_MAX);
  const merged: number[] = [];
  for (let i = 0; i < values.length; i += per)
    merged.push(values.slice(i, i + per).reduce((a, b) => a + b, 0));
  const max = Math.max(0, ...merged);
  return merged
    .map((v) =>
      v <= 0 || max === 0 ? "·" : BARS[Math.min(BARS.length - 1, Math.ceil((v / max) * BARS.length) - 1)],
    )
    .join("");
}

/** The period in words: "2026-01-01 to 2026-01-31 (UTC days), by day". */
export function periodWords(r: ResultsReport): string {
  return `${r.period.since} to ${r.period.until} (UTC days), trend by ${r.period.every}`;
}

/** The notes every human view ends with. */
export function resultsNotes(r: ResultsReport): string[] {
  return [
    `Figures are what happened in the period: each project's counters at its last snapshot before the period's end, less those before its start (read from ${r.store}, ${r.snapshotsRead} snapshots).`,
    "Rates: delivery = delivered / sent; reply rate = replies / delivered; opt-out = opt-outs / delivered; click rate = unique clicks / delivered; $/reply = cost / replies; a group's rates come from its sums. `-`: nothing to divide by.",
  ];
}
