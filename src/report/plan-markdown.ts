/**
 * A plan as a GitHub pull-request comment: title, summary line, a table of every project, then one
 * collapsible `<details>` section per project with something to say (actions, drift as ```diff
 * fences, estimate, guard, notes, diagnostics), and request counts. Kept under GitHub's comment limit by
 * leaving out whole table rows and sections from the end, never part of one, with a note saying so.
 * Pure; every piece of user text is escaped.
 */

import { diffLines } from "diff";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Action, Drift, Plan, ProjectPlan } from "../plan/types.js";
import { renderDiagnosticsMarkdown } from "./diagnostics-markdown.js";
import { renderItemsMarkdown } from "./email-markdown.js";
import { describeGuard, describeGuardShort } from "./guard-describe.js";
import { codeSpan, escapeMarkdown, escapeSummaryHtml, fencedBlock } from "./markdown-escape.js";
import { describeOrganizationPlan } from "./organizations-describe.js";
import { describePlaces } from "./places-words.js";
import {
  describeEstimate,
  describeRequest,
  endpointCounts,
  formatCents,
  formatCount,
  isQuiet,
  LEGEND,
  plural,
  STATUS_SYMBOL,
  summaryLine,
} from "./plan-describe.js";
import { describePolicy } from "./policy-describe.js";
import {
  describeSend,
  describeSendTotals,
  describeSendWithSchedule,
  recordNames,
  recordsWithIds,
  recordWithId,
  totalsOrganization,
} from "./send-describe.js";
import { bySeverity, severityHeading } from "./severity-heading.js";

/** GitHub's limit on the body of an issue or pull-request comment, in characters. */
export const GITHUB_COMMENT_MAX_CHARS = 65_536;

/** Options of {@link renderPlanMarkdown}. */
export interface PlanMarkdownOptions {
  /**
   * Upper bound on the length (UTF-16 code units, which is never less than GitHub's count) of the
   * result; default {@link GITHUB_COMMENT_MAX_CHARS}. Honoured as long as the title, summary and
   * request counts alone fit.
   */
  readonly maxChars?: number;
  /**
   * Where the visual preview gallery (`preview --html`) of the same files is published, e.g. a CI
   * artifact; when given, the head links it. Absent: no link, the report unchanged.
   */
  readonly galleryUrl?: string;
}

/** Renders the PR comment. The result ends with a newline. */
export function renderPlanMarkdown(plan: Plan, options: PlanMarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? GITHUB_COMMENT_MAX_CHARS;
  const head = headBlock(plan, options.galleryUrl);
  const rows = plan.projects.map(tableRow);
  const planDiagnostics = diagnosticsBlocks(plan.diagnostics, " (not about one project)")
    .map((line) => `${line}\n`)
    .join("");
  const sections = plan.projects.filter((p) => !isQuiet(p)).map(section);
  // The plan's other items (email, reply rules) and their findings: never left out, as counted.
  const tail = renderItemsMarkdown(plan) + requestsBlock(plan);

  const full = assemble(head, rows, planDiagnostics, sections, tail, "");
  if (full.length <= maxChars) return full;

  // Over the limit: keep table rows first (the overview of every project), then sections, in order,
  // each whole; stop at the first that does not fit, so that what is left out is a suffix.
  const reserve = omissionNote(rows.length, 0, sections.length, 0, maxChars).length;
  const fixed = assemble(head, [], planDiagnostics, [], tail, "").length + TABLE_HEADER.length + 1;
  const byRows = keepWhole(
    rows.map((r) => r.length + 1),
    maxChars - fixed - reserve,
  );
  const keptRows = byRows.kept;
  const keptSections =
    keptRows === rows.length
      ? keepWhole(
          sections.map((s) => s.length),
          byRows.left,
        ).kept
      : 0;
  const note = omissionNote(rows.length, keptRows, sections.length, keptSections, maxChars);
  return assemble(
    head,
    rows.slice(0, keptRows),
    planDiagnostics,
    sections.slice(0, keptSections),
    tail,
    note,
  );
}

/** Blocks end with a blank line; the table's rows end with one newline each. */
function assemble(
  head: string,
  rows: readonly string[],
  planDiagnostics: string,
  sections: readonly string[],
  tail: string,
  note: string,
): string {
  const table = rows.length === 0 ? "" : `${TABLE_HEADER}${rows.map((r) => `${r}\n`).join("")}\n`;
  const text = head + note + table + planDiagnostics + sections.join("") + tail;
  return `${text.replace(/\n+$/, "")}\n`;
}

/**
 * The truncation rule shared by the Markdown reports: keeps pieces (rows, sections) whole and in
 * order, stopping at the first whose `lengths` entry exceeds what is left of `budget`, so that what
 * is left out is always a suffix. Returns how many were kept and the budget left.
 */
export function keepWhole(lengths: readonly number[], budget: number): { kept: number; left: number } {
  let left = budget;
  let kept = 0;
  for (const length of lengths) {
    if (length > left) break;
    left -= length;
    kept += 1;
  }
  return { kept, left };
}

/** `GitHub's 65,536-character comment limit`, or `the limit of N characters` for another limit. */
export function limitPhrase(maxChars: number): string {
  return maxChars === GITHUB_COMMENT_MAX_CHARS
    ? `GitHub's ${formatCount(maxChars)}-character comment limit`
    : `the limit of ${formatCount(maxChars)} characters`;
}

function omissionNote(
  totalRows: number,
  keptRows: number,
  totalSections: number,
  keptSections: number,
  maxChars: number,
): string {
  if (keptRows === totalRows && keptSections === totalSections) return "";
  const parts: string[] = [];
  if (keptRows < totalRows)
    parts.push(`${formatCount(totalRows - keptRows)} of ${plural(totalRows, "table row")}`);
  if (keptSections < totalSections) {
    parts.push(`${formatCount(totalSections - keptSections)} of ${plural(totalSections, "project section")}`);
  }
  return (
    `> [!NOTE]\n> ${parts.join(" and ")} (from the end) were left out to stay under ${limitPhrase(maxChars)}. ` +
    "The full plan is in the JSON plan document (`campaignctl plan --out plan.json`).\n\n"
  );
}

function headBlock(plan: Plan, galleryUrl: string | undefined): string {
  const files = plan.files.length === 0 ? "no files" : plan.files.map((f) => codeSpan(f.path)).join(", ");
  const lines = [
    "## campaignctl plan",
    "",
    `**${escapeMarkdown(summaryLine(plan))}**`,
    "",
    `Computed against ${codeSpan(plan.base_url)} at ${escapeMarkdown(plan.created_at)} from ${files} ` +
      `(campaignctl ${escapeMarkdown(plan.tool_version)}, plan format ${plan.format_version}).`,
  ];
  if (plan.targets.length > 0) lines.push(`Targets: ${plan.targets.map((t) => codeSpan(t)).join(", ")}.`);
  if (plan.excludes.length > 0) lines.push(`Excludes: ${plan.excludes.map((t) => codeSpan(t)).join(", ")}.`);
  const policy = describePolicy(plan.policy);
  lines.push(
    "",
    plan.policy === null
      ? "Policy: none."
      : `Policy: ${plan.policy.files.map((f) => codeSpan(f)).join(", ") || "none"} (${escapeMarkdown(policy.rules)}).`,
  );
  for (const l of policy.loosened) lines.push("", `**Policy loosened:** ${escapeMarkdown(l)}.`);
  if (plan.projects.length > 0) lines.push("", ...totalsBlock(plan));
  if (galleryUrl !== undefined)
    lines.push("", `Message previews: [the gallery of phone mock-ups](<${linkDestination(galleryUrl)}>).`);
  lines.push(
    "",
    `Symbols: ${LEGEND.map(([symbol, meaning]) => `${codeSpan(symbol)} ${meaning}`).join(", ")}.`,
    "",
    "",
  );
  return lines.join("\n");
}

/** The totals of the sends: one line, then a table per organization when there is more than one. */
function totalsBlock(plan: Plan): string[] {
  const { overall, by_organization } = plan.totals;
  const lines = [`**Totals of the sends to lists:** ${escapeMarkdown(describeSendTotals(overall))}.`];
  if (plan.organizations !== undefined) {
    lines.push("", "**Organizations:**", "");
    for (const o of plan.organizations) lines.push(`- ${escapeMarkdown(describeOrganizationPlan(o))}`);
  }
  if (by_organization.length <= 1) return lines;
  lines.push(
    "",
    "| Organization | Projects sending | Recipients | SMS segments | MMS messages | Estimated cost |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const t of by_organization) {
    // Nothing of the entry was estimated: its sums are unknown, not zero.
    const unknown = t.projects > 0 && t.not_estimated === t.projects;
    const figure = (text: string): string => (unknown ? "?" : text);
    const projects =
      t.not_estimated === 0
        ? formatCount(t.projects)
        : `${formatCount(t.projects)} (${formatCount(t.not_estimated)} not estimated)`;
    const cells = [
      escapeMarkdown(totalsOrganization(t)),
      projects,
      figure(formatCount(t.recipients)),
      figure(formatCount(t.sms_segments)),
      figure(formatCount(t.mms_messages)),
      figure(formatCents(t.estimated_cost_cents)),
    ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines;
}

/** A URL as a `<...>` link destination: angle brackets, whitespace and backslashes percent-encoded. */
function linkDestination(url: string): string {
  return url.replace(/[<>\\\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

const TABLE_HEADER =
  "| Project | Live | Desired | Actions | Blocked / drift | Contact lists | Suppression lists | Sends | Guard | Recipients | Cost |\n" +
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | ---: | ---: |\n";

function tableRow(p: ProjectPlan): string {
  const name = p.name === null ? "" : ` ${escapeMarkdown(p.name)}`;
  const actions =
    p.actions.length === 0
      ? "nothing to do"
      : p.actions.map((a) => `${codeSpan(STATUS_SYMBOL[a.status])} ${a.kind}`).join(", ");
  const problems: string[] = [];
  if (p.live === null) problems.push("**could not be read**");
  const blocked = p.actions.filter((a) => a.status === "blocked").length;
  if (blocked > 0) problems.push(`**${formatCount(blocked)} blocked**`);
  if (p.drift.length > 0) problems.push(`drift: ${p.drift.map((d) => codeSpan(d.field)).join(", ")}`);
  const cells = [
    `${codeSpan(p.address, true)}${name}`,
    p.live === null ? "?" : p.live.status,
    p.desired,
    actions,
    problems.length === 0 ? "none" : problems.join("; "),
    p.audience === null ? "?" : escapeMarkdown(recordNames(p.audience.contact_lists)),
    p.audience === null ? "?" : escapeMarkdown(recordNames(p.audience.suppression_lists)),
    escapeMarkdown(describeSend(p)),
    escapeMarkdown(describeGuardShort(p.guard)),
    p.estimate === null ? "" : formatCount(p.estimate.recipients),
    p.estimate === null ? "" : formatCents(p.estimate.estimated_cost_cents),
  ];
  return `| ${cells.join(" | ")} |`;
}

function sectionSummary(p: ProjectPlan): string {
  const name = p.name === null ? "" : ` ${escapeSummaryHtml(p.name)}`;
  const counts = { planned: 0, deferred: 0, blocked: 0 };
  for (const a of p.actions) counts[a.status] += 1;
  const parts: string[] = [];
  if (p.live === null) parts.push("could not be read");
  if (counts.planned > 0) parts.push(`${formatCount(counts.planned)} to do`);
  if (counts.deferred > 0) parts.push(`${formatCount(counts.deferred)} deferred`);
  if (counts.blocked > 0) parts.push(`${formatCount(counts.blocked)} blocked`);
  if (p.drift.length > 0) parts.push("drift");
  if (parts.length === 0) parts.push("no actions");
  const transition = p.live === null ? `desired ${p.desired}` : `${p.live.status} → ${p.desired}`;
  return `<code>${escapeSummaryHtml(p.address)}</code>${name}: ${transition}, ${parts.join(", ")}`;
}

/** One project's collapsible section; ends with a blank line. */
function section(p: ProjectPlan): string {
  const out: string[] = [`<details><summary>${sectionSummary(p)}</summary>`, ""];
  const live =
    p.live === null
      ? "could not be read"
      : `live ${codeSpan(p.live.status)} (updated ${escapeMarkdown(p.live.updated_at)})`;
  out.push(
    `Project ${codeSpan(p.project_id)} in ${codeSpan(p.file)}: ${live}, desired ${codeSpan(p.desired)}.`,
    "",
  );
  if (p.actions.length > 0) out.push("**Actions**", "", p.actions.map(actionItem).join("\n"), "");
  if (p.drift.length > 0) {
    out.push("**Drift** (live → file; the API cannot edit these, so they block every sending action)", "");
    for (const d of p.drift) out.push(...driftItem(d));
  }
  if (p.audience !== null) {
    const a = p.audience;
    out.push(
      `**Contact lists:** ${escapeMarkdown(recordsWithIds(a.contact_lists))}. ` +
        `**Suppression lists:** ${escapeMarkdown(recordsWithIds(a.suppression_lists))}. ` +
        `**Organization:** ${escapeMarkdown(recordWithId(a.organization))}.` +
        (a.places === undefined
          ? ""
          : ` **Recipients in:** ${escapeMarkdown(describePlaces(a.places, a.contact_lists))}.`),
      "",
    );
  }
  out.push(`**Sends:** ${escapeMarkdown(describeSendWithSchedule(p))}.`, "");
  if (p.estimate !== null) out.push(`**Estimate:** ${escapeMarkdown(describeEstimate(p.estimate))}`, "");
  if (p.guard !== null) out.push(`**Guard:** ${escapeMarkdown(describeGuard(p.guard))}.`, "");
  if (p.notes.length > 0)
    out.push("**Notes**", "", p.notes.map((n) => `- ${escapeMarkdown(n)}`).join("\n"), "");
  out.push(...diagnosticsBlocks(p.diagnostics));
  out.push("</details>", "", "");
  return out.join("\n");
}

/** The diagnostics under one bold heading per severity ("**Errors**"), each block ending with a blank line. */
function diagnosticsBlocks(diagnostics: readonly Diagnostic[], about = ""): string[] {
  return bySeverity(diagnostics).flatMap((g) => [
    `**${severityHeading(g.severity)}${about}**`,
    "",
    renderDiagnosticsMarkdown(g.diagnostics),
    "",
  ]);
}

function actionItem(a: Action): string {
  const lines = [
    `- ${codeSpan(STATUS_SYMBOL[a.status])} **${codeSpan(a.id)}** ${a.status}, ${a.before} → ${a.after}: ` +
      `${codeSpan(`${a.request.method} ${a.request.path}`)} ${escapeMarkdown(describeRequest(a))}`,
  ];
  if (a.depends_on.length > 0) lines.push(`  - after: ${a.depends_on.map((d) => codeSpan(d)).join(", ")}`);
  if (a.waits_for !== undefined) lines.push(`  - waits for: ${escapeMarkdown(a.waits_for)}`);
  if (a.block !== undefined) {
    lines.push(`  - **blocked:** ${escapeMarkdown(a.block.reason)}`);
    lines.push(`  - **fix:** ${escapeMarkdown(a.block.fix)}`);
    if (a.block.codes.length > 0)
      lines.push(`  - codes: ${a.block.codes.map((c) => codeSpan(c)).join(", ")}`);
  }
  lines.push(`  - why: ${escapeMarkdown(a.reason)}`);
  return lines.join("\n");
}

/** A drift entry: its field and fix, then a ```diff fence (live lines `-`, file lines `+`). */
function driftItem(d: Drift): string[] {
  return [
    `- ${codeSpan(d.field)}: ${escapeMarkdown(d.fix)}`,
    "",
    fencedBlock(lineDiff(d.before_text, d.after_text), "diff"),
    "",
  ];
}

/** Unified-style lines: unchanged lines with two spaces, removed with `- `, added with `+ `. */
export function lineDiff(before: string, after: string): string {
  const lines: string[] = [];
  for (const change of diffLines(before, after)) {
    const prefix = change.removed ? "- " : change.added ? "+ " : "  ";
    for (const line of change.value.replace(/\n$/, "").split("\n")) lines.push(prefix + line);
  }
  return lines.join("\n");
}

function requestsBlock(plan: Plan): string {
  const lines = [
    `**API requests:** ${formatCount(plan.requests.total)} (a naive refresh would have made ` +
      `${formatCount(plan.requests.naive)})`,
    "",
  ];
  const counts = endpointCounts(plan);
  if (counts.length > 0) {
    lines.push("| Endpoint | Requests |", "| --- | ---: |");
    for (const [endpoint, n] of counts) lines.push(`| ${codeSpan(endpoint, true)} | ${formatCount(n)} |`);
  }
  return `${lines.join("\n")}\n`;
}
