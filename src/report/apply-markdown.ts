/**
 * An apply run as a pull-request or CI comment: title, summary line, where and when, then failures
 * first (each failed action with its error and attempts), then a table of every action (status,
 * project, kind, details), then request counts. A refused plan gets its reasons instead. Kept under
 * GitHub's comment limit by the plan comment's rule: whole failure items and table rows are left out
 * from the end, never part of one, with a note saying so. Pure; every piece of user and API text is
 * escaped.
 */

import type { ActionResult, ApplyResult } from "../apply/types.js";
import { formatDuration } from "../text/duration.js";
import {
  type ActionDetail,
  APPLY_LEGEND,
  APPLY_STATUS_WORD,
  APPLY_SYMBOL,
  actionDetails,
  applyOutcome,
  applySummaryLine,
  describeRetries,
  describeUnreadable,
  durationMs,
  headlineFacts,
  noneStarted,
  UNREADABLE_TITLE,
} from "./apply-describe.js";
import { renderDiagnosticsMarkdown } from "./diagnostics-markdown.js";
import { codeSpan, escapeMarkdown } from "./markdown-escape.js";
import { describeOrganizationApply } from "./organizations-describe.js";
import { endpointCounts, formatCount, plural } from "./plan-describe.js";
import { GITHUB_COMMENT_MAX_CHARS, keepWhole, limitPhrase } from "./plan-markdown.js";

/** Options of {@link renderApplyMarkdown}. */
export interface ApplyMarkdownOptions {
  /**
   * Upper bound on the length (UTF-16 code units) of the result; default
   * {@link GITHUB_COMMENT_MAX_CHARS}. Honoured as long as the title, summary and request counts fit.
   */
  readonly maxChars?: number;
}

/** A list of whole pieces under a heading; the heading is shown only when a piece is. */
interface Part {
  readonly heading: string;
  readonly pieces: readonly string[];
  /** What one piece is called in the omission note ("failed-action item"). */
  readonly noun: string;
}

/** Renders the comment. The result ends with a newline. */
export function renderApplyMarkdown(result: ApplyResult, options: ApplyMarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? GITHUB_COMMENT_MAX_CHARS;
  const head = headBlock(result);
  // The email lists' syncs are part of the run: never left out, as the summary line counts them.
  const tail = emailBlock(result) + requestsBlock(result);
  const parts = bodyParts(result);

  const full = assemble(head, parts, [parts[0].pieces.length, parts[1].pieces.length], tail, "");
  if (full.length <= maxChars) return full;

  // Over the limit: keep failures first (what a reviewer must see), then table rows, in order, each
  // whole; stop at the first that does not fit, so that what is left out is a suffix.
  const reserve = omissionNote(parts, [0, 0], maxChars).length;
  const fixed = head.length + tail.length + parts[0].heading.length + parts[1].heading.length + 2;
  const first = keepWhole(
    parts[0].pieces.map((p) => p.length + 1),
    maxChars - fixed - reserve,
  );
  const second =
    first.kept === parts[0].pieces.length
      ? keepWhole(
          parts[1].pieces.map((p) => p.length + 1),
          first.left,
        ).kept
      : 0;
  const kept: [number, number] = [first.kept, second];
  return assemble(head, parts, kept, tail, omissionNote(parts, kept, maxChars));
}

function bodyParts(result: ApplyResult): readonly [Part, Part] {
  switch (applyOutcome(result)) {
    case "refused":
      return [
        {
          heading: "### The plan was refused, so nothing was sent\n\n",
          pieces: result.refused.map((d) => renderDiagnosticsMarkdown([d])),
          noun: "reason",
        },
        { heading: "", pieces: [], noun: "table row" },
      ];
    case "interrupted":
    case "failed":
    case "incomplete":
    case "complete":
      return [
        {
          heading: "### Failed actions\n\n",
          pieces: result.actions.filter((a) => a.status === "failed").map(failureItem),
          noun: "failed-action item",
        },
        { heading: TABLE_HEADER, pieces: result.actions.map(tableRow), noun: "table row" },
      ];
  }
}

/** Each part's heading and kept pieces, one per line, then a blank line; the result ends in one newline. */
function assemble(
  head: string,
  parts: readonly [Part, Part],
  kept: readonly [number, number],
  tail: string,
  note: string,
): string {
  let body = "";
  for (const [i, part] of parts.entries()) {
    const n = kept[i] ?? 0;
    if (n === 0) continue;
    body += `${part.heading}${part.pieces
      .slice(0, n)
      .map((p) => `${p}\n`)
      .join("")}\n`;
  }
  const text = head + note + body + tail;
  return `${text.replace(/\n+$/, "")}\n`;
}

function omissionNote(
  parts: readonly [Part, Part],
  kept: readonly [number, number],
  maxChars: number,
): string {
  const left: string[] = [];
  for (const [i, part] of parts.entries()) {
    const total = part.pieces.length;
    const n = kept[i] ?? 0;
    if (n < total) left.push(`${formatCount(total - n)} of ${plural(total, part.noun)}`);
  }
  if (left.length === 0) return "";
  return (
    `> [!NOTE]\n> ${left.join(" and ")} (from the end) were left out to stay under ${limitPhrase(maxChars)}. ` +
    "The full report is in the JSON apply report (`campaignctl apply --json`).\n\n"
  );
}

function headBlock(result: ApplyResult): string {
  const took = durationMs(result.started_at, result.finished_at);
  const lines = [
    "## campaignctl apply",
    "",
    `**${escapeMarkdown(applySummaryLine(result))}**`,
    "",
    `Applied against ${codeSpan(result.base_url)} from the plan made at ${escapeMarkdown(result.plan_created_at)}, ` +
      `by campaignctl ${escapeMarkdown(result.tool_version)} (apply format ${result.format_version}). ` +
      `Ran from ${escapeMarkdown(result.started_at)} to ${escapeMarkdown(result.finished_at)}` +
      `${took === null ? "" : ` (${formatDuration(took)})`}.`,
    result.journal === null ? "No journal was written." : `Journal: ${codeSpan(result.journal)}.`,
    "",
  ];
  if (result.interrupted) {
    lines.push("> [!WARNING]", "> The run was interrupted: actions not yet started were left alone.", "");
  }
  if (result.organizations !== undefined) {
    lines.push("**Organizations:**", "");
    for (const o of result.organizations) lines.push(`- ${escapeMarkdown(describeOrganizationApply(o))}`);
    lines.push("");
  }
  if (result.unreadable.length > 0) {
    lines.push("> [!CAUTION]", `> ${escapeMarkdown(UNREADABLE_TITLE)}`);
    for (const u of result.unreadable) lines.push(`> - ${escapeMarkdown(describeUnreadable(u))}`);
    lines.push("");
  }
  if (result.refused.length === 0) {
    lines.push(
      `Symbols: ${APPLY_LEGEND.map(([symbol, word]) => `${codeSpan(symbol)} ${word}`).join(", ")}.`,
      "",
    );
  } else if (result.actions.length > 0) {
    const n = result.actions.length;
    lines.push(noneStarted(n), "");
  }
  lines.push("");
  return lines.join("\n");
}

/** `label: text`, escaped; a label-less detail is its text. */
function detailText(d: ActionDetail): string {
  const text = escapeMarkdown(d.text);
  if (d.label === "") return text;
  return d.tone === "bad" ? `**${d.label}:** ${text}` : `${d.label}: ${text}`;
}

function failureItem(a: ActionResult): string {
  const lines = [
    `- ${codeSpan(APPLY_SYMBOL[a.status])} **${codeSpan(a.id)}** ${a.kind} of ${codeSpan(a.address)} failed`,
  ];
  for (const d of actionDetails(a)) lines.push(`  - ${detailText(d)}`);
  return lines.join("\n");
}

const TABLE_HEADER = "### Actions\n\n| Status | Project | Kind | Details |\n| --- | --- | --- | --- |\n";

function tableRow(a: ActionResult): string {
  const word = APPLY_STATUS_WORD[a.status];
  const status = `${codeSpan(APPLY_SYMBOL[a.status])} ${a.status === "failed" ? `**${word}**` : word}`;
  const details: string[] = [];
  for (const fact of headlineFacts(a)) details.push(escapeMarkdown(fact));
  for (const d of actionDetails(a)) details.push(detailText(d));
  const cells = [status, codeSpan(a.address, true), a.kind, details.length === 0 ? "" : details.join("; ")];
  return `| ${cells.join(" | ")} |`;
}

/** The email lists' syncs: a table, then their findings; "" without email. */
function emailBlock(result: ApplyResult): string {
  const email = result.email;
  if (email === undefined || email.lists.length === 0) return "";
  const lines = [
    "### Email lists",
    "",
    "| List | Sync | Rows | Accepted | Rejected | Duplicates | Refused | Not sent | Unknown | Batches |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...email.lists.map(
      (l) =>
        `| ${codeSpan(l.address)} | ${l.state} | ${formatCount(l.rows)} | ${formatCount(l.accepted)} | ` +
        `${formatCount(l.rejected)} | ${formatCount(l.duplicates)} | ${formatCount(l.refused)} | ` +
        `${formatCount(l.not_sent + l.skipped)} | ${formatCount(l.unknown)} | ${formatCount(l.batches.length)} |`,
    ),
    "",
  ];
  const findings = email.lists.flatMap((l) => l.diagnostics);
  if (findings.length > 0) lines.push(renderDiagnosticsMarkdown(findings), "");
  return `${lines.join("\n")}\n`;
}

function requestsBlock(result: ApplyResult): string {
  const r = result.requests;
  const lines = [
    `**API requests:** ${formatCount(r.total)} (${describeRetries(r.retries)}, ` +
      `${formatCount(r.rate_limited_429)} rate-limited, ${formatDuration(r.rate_limit_wait_ms)} waiting for the rate limit)`,
    "",
  ];
  if (result.basis_reads > 0)
    lines.push(
      `Fresh reads confirming what was sent: ${plural(result.basis_reads, "request")} (counted above).`,
      "",
    );
  const counts = endpointCounts(result);
  if (counts.length > 0) {
    lines.push("| Endpoint | Requests |", "| --- | ---: |");
    for (const [endpoint, n] of counts) lines.push(`| ${codeSpan(endpoint, true)} | ${formatCount(n)} |`);
  }
  return `${lines.join("\n")}\n`;
}
