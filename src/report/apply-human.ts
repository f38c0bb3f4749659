/**
 * The terminal view of an apply run, after Terraform's: a header, the legend, one entry per action
 * in plan order (symbol, id, status, then its details: test messages, schedule times in the
 * schedule's timezone and in UTC, how an unknown outcome was resolved, the error, what it waited
 * for or was skipped or blocked by), the summary line, request counts and the journal path. A
 * refused plan gets its reasons instead of actions. Pure: data in, string out; colour only when
 * asked for; ASCII apart from user and API text.
 */
import type { ActionResult, ApplyResult } from "../apply/types.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatDuration } from "../text/duration.js";
import {
  type ActionDetail,
  APPLY_LEGEND,
  APPLY_SYMBOL,
  actionDetails,
  applyOutcome,
  applySummaryLine,
  type DetailTone,
  describeHeadline,
  describeRetries,
  describeUnreadable,
  durationMs,
  noneStarted,
  UNREADABLE_TITLE,
} from "./apply-describe.js";
import { renderDiagnosticsText } from "./diagnostics-text.js";
import { renderEmailApplyHuman } from "./email-human.js";
import { describeOrganizationApply } from "./organizations-describe.js";
import { endpointCounts, formatCount, plural } from "./plan-describe.js";
import { DEFAULT_WIDTH } from "./plan-human.js";
import { type Style, styleFor } from "./style.js";
import { indentLines, wrapText } from "./text-wrap.js";

/** Options of {@link renderApplyHuman}. */
export interface ApplyHumanOptions {
  /** ANSI colour (the caller decides: TTY and no NO_COLOR). */
  readonly color: boolean;
  /** Column at which campaignctl's prose wraps; default 100. API and user text is never wrapped. */
  readonly width?: number;
  /** File name to text, for source excerpts under refusal diagnostics. */
  readonly sources?: ReadonlyMap<string, string>;
  /** The table of API requests by endpoint under the summary (the CLI: with --verbose); default shown. */
  readonly requestTable?: boolean;
}

interface Ctx {
  readonly style: Style;
  readonly color: boolean;
  readonly width: number;
  readonly sources: ReadonlyMap<string, string>;
}

/** Renders an apply result for the terminal. The result ends with a newline. */
export function renderApplyHuman(result: ApplyResult, options: ApplyHumanOptions): string {
  const ctx: Ctx = {
    style: styleFor(options.color),
    color: options.color,
    width: options.width ?? DEFAULT_WIDTH,
    sources: options.sources ?? new Map(),
  };
  const parts: string[] = [
    header(result, ctx),
    ...body(result, ctx),
    ...organizations(result, ctx),
    footer(result, ctx, options.requestTable ?? true),
  ];
  return `${parts.join("\n\n")}\n`;
}

/** The blocks between header and footer, by how the run ended. */
function body(result: ApplyResult, ctx: Ctx): string[] {
  const outcome = applyOutcome(result);
  switch (outcome) {
    case "refused":
      return [refusal(result, ctx)];
    case "interrupted":
      return [
        ctx.style.yellow("The run was interrupted: actions not yet started were left alone."),
        actionList(result, ctx),
        ...unreadable(result, ctx),
      ];
    case "failed":
    case "incomplete":
    case "complete":
      return [actionList(result, ctx), ...emailSyncs(result, ctx), ...unreadable(result, ctx)];
  }
}

/** The email lists' syncs of the run, part of the one result (issue 33). */
function emailSyncs(result: ApplyResult, ctx: Ctx): string[] {
  if (result.email === undefined) return [];
  const text = renderEmailApplyHuman(result.email, { color: ctx.color, sources: ctx.sources });
  return text === "" ? [] : [text];
}

/** One line per organization when the run spans several (issue 26). */
function organizations(result: ApplyResult, ctx: Ctx): string[] {
  if (result.organizations === undefined) return [];
  const lines = [ctx.style.bold("Organizations:")];
  for (const o of result.organizations) {
    const line = `  ${describeOrganizationApply(o)}`;
    lines.push(o.state === "failed" || o.state === "blocked" ? ctx.style.red(line) : line);
  }
  return [lines.join("\n")];
}

function unreadable(result: ApplyResult, ctx: Ctx): string[] {
  if (result.unreadable.length === 0) return [];
  const lines = [ctx.style.red(ctx.style.bold(UNREADABLE_TITLE))];
  for (const u of result.unreadable) lines.push(`  ${ctx.style.red("x")} ${describeUnreadable(u)}`);
  return [lines.join("\n")];
}

function header(result: ApplyResult, ctx: Ctx): string {
  const took = durationMs(result.started_at, result.finished_at);
  const lines = [
    ctx.style.bold(
      `campaignctl apply (campaignctl ${result.tool_version}, apply format ${result.format_version})`,
    ),
    `  API:       ${result.base_url}`,
    `  plan from: ${result.plan_created_at}`,
    `  started:   ${result.started_at}`,
    `  finished:  ${result.finished_at}${took === null ? "" : ` (${formatDuration(took)})`}`,
  ];
  if (result.refused.length === 0) {
    lines.push("", `Symbols: ${APPLY_LEGEND.map(([symbol, word]) => `${symbol} ${word}`).join("   ")}`);
  }
  return lines.join("\n");
}

function refusal(result: ApplyResult, ctx: Ctx): string {
  const { style } = ctx;
  const lines = [
    style.red(style.bold("The plan was refused, so nothing was sent:")),
    "",
    diagnostics(result.refused, ctx),
  ];
  if (result.actions.length > 0) {
    lines.push("", noneStarted(result.actions.length));
  }
  return lines.join("\n");
}

function actionList(result: ApplyResult, ctx: Ctx): string {
  if (result.actions.length === 0)
    return result.email === undefined || result.email.plan.lists.length === 0
      ? "No actions: the plan had nothing to do."
      : "No texting actions: the plan's projects had nothing to do.";
  return result.actions.map((a) => action(a, ctx)).join("\n");
}

function paintSymbol(a: ActionResult, style: Style): string {
  const symbol = APPLY_SYMBOL[a.status];
  switch (a.status) {
    case "done":
    case "replayed":
      return style.green(symbol);
    case "failed":
    case "blocked":
      return style.red(symbol);
    case "skipped":
      return style.yellow(symbol);
    case "deferred":
      return style.cyan(symbol);
    case "not-started":
      return style.dim(symbol);
    case "unknown":
      return style.yellow(symbol);
  }
}

function paintTone(tone: DetailTone, style: Style): (s: string) => string {
  switch (tone) {
    case "plain":
      return (s) => s;
    case "bad":
      return style.red;
    case "wait":
      return style.cyan;
    case "note":
      return style.yellow;
  }
}

function action(a: ActionResult, ctx: Ctx): string {
  const { style } = ctx;
  const lines = [`  ${paintSymbol(a, style)} ${style.bold(a.id)}: ${describeHeadline(a)}`];
  for (const d of actionDetails(a)) lines.push(detailLine(d, ctx));
  return lines.join("\n");
}

const DETAIL_INDENT = "      ";

/** A labelled detail; prose wraps with continuation lines under the text, API/user text does not. */
function detailLine(d: ActionDetail, ctx: Ctx): string {
  const label = d.label === "" ? "" : `${d.label}: `;
  const width = d.prose ? ctx.width : Number.POSITIVE_INFINITY;
  const wrapped = wrapText(
    d.text,
    width,
    DETAIL_INDENT + label,
    " ".repeat(DETAIL_INDENT.length + label.length),
  );
  if (label === "") return wrapped;
  const paint = paintTone(d.tone, ctx.style);
  return `${DETAIL_INDENT}${paint(d.label)}: ${wrapped.slice(DETAIL_INDENT.length + label.length)}`;
}

function diagnostics(list: readonly Diagnostic[], ctx: Ctx): string {
  const text = renderDiagnosticsText(list, { sources: ctx.sources, color: ctx.color });
  return indentLines(text.replace(/\n$/, ""), "  ");
}

function footer(result: ApplyResult, ctx: Ctx, requestTable: boolean): string {
  const lines = [ctx.style.bold(applySummaryLine(result))];
  if (requestTable) {
    const counts = endpointCounts(result);
    lines.push(`API requests by endpoint (${describeRetries(result.requests.retries)}):`);
    const width = Math.max(0, ...counts.map(([, n]) => formatCount(n).length));
    for (const [endpoint, n] of counts) lines.push(`  ${formatCount(n).padStart(width)}  ${endpoint}`);
    if (counts.length === 0) lines.push("  (none)");
  }
  if (result.basis_reads > 0)
    lines.push(
      `Fresh reads confirming what was sent: ${plural(result.basis_reads, "request")} (counted above).`,
    );
  lines.push(result.journal === null ? "No journal was written." : `Journal: ${result.journal}`);
  return lines.join("\n");
}
