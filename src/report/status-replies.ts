/**
 * The replies beside `status`'s figures (`status --replies-state DIR`, default the worker's state
 * directory): per project of the report, the answers `replies run` recorded per rule, their SMS
 * segments and their cost. Text (a table under the status table), JSON (the `replies` member of
 * `schemas/status-result.schema.json`) and Markdown (a section). Projects with nothing recorded
 * show no rows; the record's projects outside the report are left out. Pure.
 */
import type { ProjectAnswered, StatusReplies } from "../replies/answered-summary.js";
import type { StatusReport } from "../status/report.js";
import { codeSpan, escapeMarkdown } from "./markdown-escape.js";
import { groupThousands, pad, projectLabel, UNKNOWN, visibleText } from "./status-cells.js";

/** Dollars with 4 decimals ("$0.0237"); `?` when a price was missing. */
function costCell(usd: number | null): string {
  return usd === null ? UNKNOWN : `$${usd.toFixed(4)}`;
}

interface Row {
  readonly project: string;
  readonly rule: string;
  readonly answered: number;
  readonly refused: number;
  readonly segments: number;
  readonly costUsd: number | null;
}

function rows(report: StatusReport, replies: StatusReplies): { label: string; p: ProjectAnswered }[] {
  const out: { label: string; p: ProjectAnswered }[] = [];
  for (const project of report.projects) {
    const p = replies.projects.get(project.id);
    if (p !== undefined) out.push({ label: projectLabel(project), p });
  }
  return out;
}

const NOTE =
  "Cost: segments times the --segment-price `replies run` was given (? where an answer was recorded without one).";

export function renderStatusRepliesText(report: StatusReport, replies: StatusReplies): string {
  const shown = rows(report, replies);
  const head = `\nReplies answered (${visibleText(replies.state)}/answered.jsonl):\n`;
  if (shown.length === 0) return `${head}  none recorded for these projects\n`;
  const table: Row[] = shown.flatMap(({ label, p }) => [
    ...p.rules.map((r) => ({ project: label, ...r })),
    ...(p.rules.length > 1 ? [{ project: label, ...p, rule: "(all rules)" }] : []),
  ]);
  const header = ["PROJECT", "RULE", "ANSWERED", "REFUSED", "SEGMENTS", "COST"];
  const cells = table.map((r) => [
    visibleText(r.project),
    visibleText(r.rule),
    groupThousands(r.answered),
    groupThousands(r.refused),
    groupThousands(r.segments),
    costCell(r.costUsd),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: readonly string[]) =>
    `  ${c.map((x, i) => pad(x, widths[i] ?? 0, i < 2 ? "left" : "right")).join("  ")}`.trimEnd();
  return `${head}${[line(header), ...cells.map(line)].join("\n")}\n  ${NOTE}\n`;
}

/** One project's replies in `status --json`. */
export interface StatusRepliesProjectJson {
  readonly project_id: string;
  readonly address: string | null;
  readonly answered: number;
  readonly refused: number;
  readonly segments: number;
  readonly cost_usd: number | null;
  readonly rules: readonly {
    readonly rule: string;
    readonly answered: number;
    readonly refused: number;
    readonly segments: number;
    readonly cost_usd: number | null;
  }[];
}

export function statusRepliesJson(
  report: StatusReport,
  replies: StatusReplies,
): { readonly state: string; readonly projects: readonly StatusRepliesProjectJson[] } {
  return {
    state: replies.state,
    projects: report.projects.flatMap((project) => {
      const p = replies.projects.get(project.id);
      if (p === undefined) return [];
      return [
        {
          project_id: p.projectId,
          address: project.address,
          answered: p.answered,
          refused: p.refused,
          segments: p.segments,
          cost_usd: p.costUsd,
          rules: p.rules.map((r) => ({
            rule: r.rule,
            answered: r.answered,
            refused: r.refused,
            segments: r.segments,
            cost_usd: r.costUsd,
          })),
        },
      ];
    }),
  };
}

export function renderStatusRepliesMarkdown(report: StatusReport, replies: StatusReplies): string {
  const out = ["", "### Replies answered", ""];
  const shown = rows(report, replies);
  if (shown.length === 0) return `${[...out, "None recorded for these projects."].join("\n")}\n`;
  out.push(
    "| Project | Rule | Answered | Refused | Segments | Cost |",
    "| --- | --- | --: | --: | --: | --: |",
  );
  for (const { label, p } of shown)
    for (const r of p.rules)
      out.push(
        `| ${codeSpan(label, true)} | ${escapeMarkdown(r.rule)} | ${groupThousands(r.answered)} | ${groupThousands(r.refused)} | ${groupThousands(r.segments)} | ${costCell(r.costUsd)} |`,
      );
  out.push("", NOTE);
  return `${out.join("\n")}\n`;
}
