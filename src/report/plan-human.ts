/**
 * The terminal view of a plan, after Terraform's: a header, the legend, one block per project (its
 * actions with symbols, drift with a word diff of message text, estimate, guard, notes, diagnostics), a
 * one-line block per project with nothing to do, and the summary line with request counts. Pure:
 * data in, string out; colour only when asked for; ASCII apart from user text.
 */

import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Action, Drift, Plan, ProjectPlan } from "../plan/types.js";
import { renderDiagnosticsText } from "./diagnostics-text.js";
import { renderItemsHuman } from "./email-human.js";
import { describeGuard } from "./guard-describe.js";
import { describeOrganizationPlan } from "./organizations-describe.js";
import { describePlaces } from "./places-words.js";
import {
  DRIFT_SYMBOL,
  describeEstimate,
  describeRequest,
  describeTransition,
  endpointCounts,
  formatCount,
  isQuiet,
  LEGEND,
  QUIET_SYMBOL,
  STATUS_SYMBOL,
  summaryLine,
  UNREAD_SYMBOL,
} from "./plan-describe.js";
import { describePolicy } from "./policy-describe.js";
import {
  describeSendTotals,
  describeSendWithSchedule,
  recordsWithIds,
  recordWithId,
  totalsOrganization,
} from "./send-describe.js";
import { type Style, styleFor } from "./style.js";
import { indentLines, wrapText } from "./text-wrap.js";
import { renderWordDiff } from "./word-diff.js";

/** Options of {@link renderPlanHuman}. */
export interface PlanHumanOptions {
  /** ANSI colour (the caller decides: TTY and no NO_COLOR). */
  readonly color: boolean;
  /** Column at which prose (reasons, fixes, notes) wraps; default 100. User text is never wrapped. */
  readonly width?: number;
  /** File name to text, for source excerpts under diagnostics; without it diagnostics have none. */
  readonly sources?: ReadonlyMap<string, string>;
  /** The table of API requests by endpoint under the summary (the CLI: with --verbose); default shown. */
  readonly requestTable?: boolean;
}

export const DEFAULT_WIDTH = 100;

interface Ctx {
  readonly style: Style;
  readonly color: boolean;
  readonly width: number;
  readonly sources: ReadonlyMap<string, string>;
}

/** Renders a plan for the terminal. The result ends with a newline. */
export function renderPlanHuman(plan: Plan, options: PlanHumanOptions): string {
  const ctx: Ctx = {
    style: styleFor(options.color),
    color: options.color,
    width: options.width ?? DEFAULT_WIDTH,
    sources: options.sources ?? new Map(),
  };
  const parts: string[] = [header(plan, ctx)];
  if (plan.diagnostics.length > 0) parts.push(diagnostics(plan.diagnostics, "", ctx));
  let projects = "";
  let previousQuiet = false;
  for (const [i, project] of plan.projects.entries()) {
    const quiet = isQuiet(project);
    if (i > 0) projects += quiet && previousQuiet ? "\n" : "\n\n";
    projects += quiet ? quietLine(project, ctx) : projectBlock(project, ctx);
    previousQuiet = quiet;
  }
  if (plan.projects.length === 0) projects = "No projects.";
  parts.push(projects);
  // Every other item of the plan and its findings, above the summary line that counts them.
  const items = renderItemsHuman(plan, { color: ctx.color, sources: ctx.sources });
  if (items !== "") parts.push(items);
  if (plan.projects.length > 0) parts.push(totals(plan, ctx));
  if (plan.organizations !== undefined) parts.push(organizations(plan, ctx));
  parts.push(footer(plan, ctx, options.requestTable ?? true));
  return `${parts.join("\n\n")}\n`;
}

function header(plan: Plan, ctx: Ctx): string {
  const { style } = ctx;
  const lines = [
    style.bold(`campaignctl plan (campaignctl ${plan.tool_version}, plan format ${plan.format_version})`),
    `  API:       ${plan.base_url}`,
    `  read at:   ${plan.created_at}`,
  ];
  if (plan.files.length === 0) lines.push("  files:     (none)");
  for (const [i, f] of plan.files.entries()) {
    lines.push(`  ${i === 0 ? "files:    " : "          "} ${f.path} (sha256 ${f.sha256.slice(0, 12)})`);
  }
  if (plan.targets.length > 0) lines.push(`  targets:   ${plan.targets.join(", ")}`);
  if (plan.excludes.length > 0) lines.push(`  excludes:  ${plan.excludes.join(", ")}`);
  const policy = describePolicy(plan.policy);
  lines.push(`  policy:    ${policy.files}`);
  if (plan.policy !== null) lines.push(`             rules: ${policy.rules}`);
  for (const l of policy.loosened) lines.push(`             ${style.yellow(`LOOSENED: ${l}`)}`);
  lines.push("", `Symbols: ${LEGEND.map(([symbol, meaning]) => `${symbol} ${meaning}`).join("   ")}`);
  return lines.join("\n");
}

function title(project: ProjectPlan): string {
  const name = project.name === null ? "" : ` (${project.name})`;
  return `${project.address}${name} - project ${project.project_id}`;
}

function quietLine(project: ProjectPlan, ctx: Ctx): string {
  return `${ctx.style.dim(QUIET_SYMBOL)} ${title(project)}: ${describeTransition(project)}: nothing to do`;
}

function projectBlock(project: ProjectPlan, ctx: Ctx): string {
  const { style } = ctx;
  const lines: string[] = [];
  if (project.live === null) {
    lines.push(`${style.red(UNREAD_SYMBOL)} ${style.bold(title(project))}: could not be read`);
    lines.push(`    file ${project.file}; desired ${project.desired}`);
  } else {
    lines.push(`# ${style.bold(title(project))}`);
    lines.push(
      `    file ${project.file}; live ${describeTransition(project)} (live updated ${project.live.updated_at})`,
    );
  }
  if (project.actions.length > 0) {
    lines.push("");
    for (const a of project.actions) lines.push(action(a, ctx));
  } else if (project.live !== null) {
    lines.push("", "  no actions");
  }
  if (project.drift.length > 0) {
    lines.push("", "  drift (live -> file; the API cannot edit these, so they block every sending action):");
    for (const d of project.drift) lines.push(drift(d, ctx));
  }
  const extra: string[] = [];
  const a = project.audience;
  if (a !== null) {
    extra.push(prose("contact lists:     ", recordsWithIds(a.contact_lists), "  ", ctx));
    extra.push(prose("suppression lists: ", recordsWithIds(a.suppression_lists), "  ", ctx));
    extra.push(prose("organization:      ", recordWithId(a.organization), "  ", ctx));
    if (a.places !== undefined)
      extra.push(prose("recipients in:     ", describePlaces(a.places, a.contact_lists), "  ", ctx));
  }
  extra.push(prose("sends:             ", describeSendWithSchedule(project), "  ", ctx));
  if (project.estimate !== null)
    extra.push(prose("estimate:          ", describeEstimate(project.estimate), "  ", ctx));
  if (project.guard !== null)
    extra.push(prose("guard:             ", describeGuard(project.guard), "  ", ctx));
  for (const note of project.notes) extra.push(prose("note: ", note, "  ", ctx));
  if (extra.length > 0) lines.push("", ...extra);
  if (project.diagnostics.length > 0) lines.push("", diagnostics(project.diagnostics, "  ", ctx));
  return lines.join("\n");
}

function symbolFor(a: Action, style: Style): string {
  switch (a.status) {
    case "planned":
      return style.green(STATUS_SYMBOL.planned);
    case "deferred":
      return style.cyan(STATUS_SYMBOL.deferred);
    case "blocked":
      return style.red(STATUS_SYMBOL.blocked);
  }
}

function action(a: Action, ctx: Ctx): string {
  const { style } = ctx;
  const lines = [
    `  ${symbolFor(a, style)} ${style.bold(a.id)}: ${a.status}, ${a.before} -> ${a.after}`,
    request(a, ctx),
  ];
  if (a.depends_on.length > 0) lines.push(prose("after: ", a.depends_on.join(", "), "      ", ctx));
  if (a.waits_for !== undefined) lines.push(prose("waits for: ", a.waits_for, "      ", ctx, style.cyan));
  if (a.block !== undefined) {
    lines.push(prose("blocked: ", a.block.reason, "      ", ctx, style.red));
    lines.push(prose("fix: ", a.block.fix, "      ", ctx, style.cyan));
    if (a.block.codes.length > 0) lines.push(`      codes: ${a.block.codes.join(", ")}`);
  }
  lines.push(prose("why: ", a.reason, "      ", ctx));
  return lines.join("\n");
}

/** `POST /path  what it does` on one line when it fits, else the description wrapped below the path. */
function request(a: Action, ctx: Ctx): string {
  const target = `      ${a.request.method} ${a.request.path}`;
  const what = describeRequest(a);
  if (target.length + 2 + what.length <= ctx.width) return `${target}  ${what}`;
  return `${target}\n${wrapText(what, ctx.width, "        ", "        ")}`;
}

function drift(d: Drift, ctx: Ctx): string {
  const { style } = ctx;
  const lines = [`  ${style.yellow(DRIFT_SYMBOL)} ${style.bold(d.field)}`];
  if (d.field === "message") {
    lines.push(indentLines(renderWordDiff(d.before_text, d.after_text, style, ctx.color), "      "));
  } else {
    lines.push(indentLines(d.before_text, "      live: "));
    lines.push(indentLines(d.after_text, "      file: "));
  }
  lines.push(prose("fix: ", d.fix, "      ", ctx, style.cyan));
  return lines.join("\n");
}

/** A labelled, wrapped line of prose; continuation lines align under the text after the label. */
function prose(label: string, text: string, indent: string, ctx: Ctx, paint?: (s: string) => string): string {
  const wrapped = wrapText(text, ctx.width, indent + label, " ".repeat(indent.length + label.length));
  if (paint === undefined) return wrapped;
  return (
    indent +
    paint(label.trimEnd()) +
    (label.endsWith(" ") ? " " : "") +
    wrapped.slice(indent.length + label.length)
  );
}

function diagnostics(list: readonly Diagnostic[], indent: string, ctx: Ctx): string {
  const text = renderDiagnosticsText(list, { sources: ctx.sources, color: ctx.color });
  return indentLines(text.replace(/\n$/, ""), indent);
}

/** What the sends add up to: overall, then per organization when there is more than one entry. */
function totals(plan: Plan, ctx: Ctx): string {
  const { overall, by_organization } = plan.totals;
  const lines = [
    prose("Totals of the sends to lists: ", `${describeSendTotals(overall)}.`, "", ctx, ctx.style.bold),
  ];
  if (by_organization.length > 1)
    for (const t of by_organization)
      lines.push(prose(`${totalsOrganization(t)}: `, `${describeSendTotals(t)}.`, "  ", ctx));
  return lines.join("\n");
}

/** One line per organization when the plan spans several (issue 26). */
function organizations(plan: Plan, ctx: Ctx): string {
  const lines = [ctx.style.bold("Organizations:")];
  for (const o of plan.organizations ?? []) {
    const line = `  ${describeOrganizationPlan(o)}`;
    lines.push(o.state === "failed" || o.state === "blocked" ? ctx.style.red(line) : line);
  }
  return lines.join("\n");
}

function footer(plan: Plan, ctx: Ctx, requestTable: boolean): string {
  const { requests } = plan;
  if (!requestTable) return ctx.style.bold(summaryLine(plan));
  const lines = [
    ctx.style.bold(summaryLine(plan)),
    `API requests by endpoint (a naive refresh would have made ${formatCount(requests.naive)}):`,
  ];
  const counts = endpointCounts(plan);
  const width = Math.max(0, ...counts.map(([, n]) => formatCount(n).length));
  for (const [endpoint, n] of counts) lines.push(`  ${formatCount(n).padStart(width)}  ${endpoint}`);
  if (counts.length === 0) lines.push("  (none)");
  return lines.join("\n");
}
