/**
 * The overview section the gallery opens with: where the figures come from (the plan, or that
 * there is none), the policy in force, and a table of what sends when (in the recipients' zone and
 * in UTC), to which lists, to how many, for how much, the guard that pauses it, with the plan's status, ending with the
 * totals overall and per organization. Pure; all user text is escaped. Each cell carries its
 * column's name (`data-label`) so that the table reads as one card per project on a phone.
 */
import type { PlanGuard, SendTotals } from "../../plan/types.js";
import { guardPieces } from "../guard-describe.js";
import { escapeHtml } from "../html-escape.js";
import { formatCents, formatCount, plural } from "../plan-describe.js";
import { describePolicy } from "../policy-describe.js";
import { totalsOrganization } from "../send-describe.js";
import type { GalleryPlanInfo } from "./model.js";
import type { GalleryOverview, OverviewRow, OverviewWhen } from "./overview.js";

const COLUMNS = [
  "Sends (recipients' time, UTC)",
  "Project",
  "Organization",
  "Contact lists",
  "Suppression lists",
  "Recipients",
  "Messages",
  "Estimated cost",
  "Guard",
  "Plan status",
] as const;
type Column = (typeof COLUMNS)[number];

function cell(column: Column, html: string, className = ""): string {
  const cls = className === "" ? "" : ` class="${className}"`;
  return `<td${cls} data-label="${escapeHtml(column)}">${html}</td>`;
}

/** `2026-12-01 15:00:00 UTC` from an ISO instant (the plan's time, to the second). */
function planTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(iso);
  return match === null ? iso : `${match[1]} ${match[2]} UTC`;
}

/** Keeps each `--flag` of escaped text on one line. */
export function flagsUnbroken(html: string): string {
  return html.replace(/--[a-z][a-z-]*/g, (flag) => `<span class="flag">${flag}</span>`);
}

function planFacts(plan: GalleryPlanInfo): string {
  const fact = (term: string, value: string): string => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`;
  switch (plan.kind) {
    case "not-planned":
      return [
        fact("Plan", `<span class="status-none">${flagsUnbroken(escapeHtml(plan.reason))}</span>`),
        fact("Policy", "not known until planned (the plan reads the policy files above the campaign files)"),
      ].join("");
    case "planned": {
      const from =
        plan.source === null ? "" : `, read from the saved plan <code>${escapeHtml(plan.source)}</code>`;
      const facts = [
        fact(
          "Plan",
          `made against <code>${escapeHtml(plan.baseUrl)}</code> at ${escapeHtml(planTime(plan.createdAt))}${from}`,
        ),
      ];
      const words = describePolicy(plan.policy);
      if (plan.policy === null) facts.push(fact("Policy", "none"));
      else {
        facts.push(
          fact(
            "Policy",
            plan.policy.files.map((f) => `<code>${escapeHtml(f)}</code>`).join(", ") ||
              escapeHtml(words.files),
          ),
        );
        facts.push(fact("Rules", escapeHtml(words.rules)));
        for (const l of words.loosened)
          facts.push(fact("Loosened", `<span class="status-blocked">${escapeHtml(l)}</span>`));
      }
      return facts.join("");
    }
  }
}

function whenCell(when: OverviewWhen): string {
  switch (when.kind) {
    case "time": {
      const t = when.time;
      const zone = t.timezone === null ? "" : `${escapeHtml(t.timezone)}<br>`;
      return cell(
        COLUMNS[0],
        `<time datetime="${escapeHtml(t.iso)}">${escapeHtml(t.local)}</time><br><span class="zone">${zone}<span class="nowrap">${escapeHtml(t.utc)}</span></span>`,
      );
    }
    case "now": {
      const zone = when.timezone === null ? "" : `<br><span class="zone">${escapeHtml(when.timezone)}</span>`;
      return cell(COLUMNS[0], `at once when applied (<code>at: now</code>)${zone}`);
    }
    case "text":
      return cell(COLUMNS[0], escapeHtml(when.text));
  }
}

function listsHtml(lists: readonly string[] | null, from: OverviewRow["listsFrom"]): string {
  if (lists === null) return `<span class="unknown">none in the file</span>`;
  if (lists.length === 0) return "none";
  const items = lists.map((l) => `<li>${escapeHtml(l)}</li>`).join("");
  const note = from === "file" ? `<span class="unknown">as written in the file</span>` : "";
  return `<ul class="lists">${items}</ul>${note}`;
}

/** One line per rate the guard judges (`failure > 5%`), then the sample, in the muted style; `none`. */
function guardHtml(guard: PlanGuard | null): string {
  if (guard === null) return "none";
  const pieces = guardPieces(guard);
  const lines = pieces.limits.map((l) => `<span class="nowrap">${escapeHtml(l)}</span>`);
  return `${lines.join("<br>")}<br><span class="zone nowrap">${escapeHtml(pieces.sample)}</span>`;
}

function unknown(text = "not known"): string {
  return `<span class="unknown">${text}</span>`;
}

/**
 * The recipients: the plan's count, and with a forecast what it says goes out (`30 before the cap,
 * 8 left`), so that the overview agrees with the timeline below it.
 */
function recipientsHtml(row: OverviewRow): string {
  if (row.recipients === null) return unknown();
  const count = `<span class="nowrap">${formatCount(row.recipients)}</span>`;
  const f = row.forecast;
  if (f === null) return count;
  if (f.left === 0) return `${count}<br><span class="zone">all sent, by the forecast</span>`;
  return `${count}<br><span class="zone forecast-left">${formatCount(f.sent)} before the daily cap, ${formatCount(f.left)} left (forecast)</span>`;
}

/** The cost: of what goes out by the forecast when it pauses at the cap, beside the plan's estimate. */
function costHtml(row: OverviewRow): string {
  if (row.costCents === null) return unknown();
  const estimate = `<span class="nowrap">${formatCents(row.costCents)}</span>`;
  const f = row.forecast;
  if (f === null || f.left === 0 || f.costCents === null) return estimate;
  return `<span class="nowrap">${formatCents(f.costCents)}</span><br><span class="zone">for the ${formatCount(f.sent)} sent before the cap (${formatCents(row.costCents)} for all ${formatCount(row.recipients ?? 0)})</span>`;
}

function rowHtml(row: OverviewRow): string {
  const className = row.sends === false ? ` class="not-sending"` : "";
  return [
    `<tr${className}>`,
    whenCell(row.when),
    `<th scope="row" data-label="${COLUMNS[1]}"><a href="#${row.project}">${escapeHtml(row.title)}</a><br><code>${escapeHtml(row.address)}</code></th>`,
    cell(COLUMNS[2], row.organization === null ? unknown() : escapeHtml(row.organization)),
    cell(COLUMNS[3], listsHtml(row.contactLists, row.listsFrom)),
    cell(COLUMNS[4], listsHtml(row.suppressionLists, row.listsFrom)),
    cell(COLUMNS[5], recipientsHtml(row), "number"),
    cell(COLUMNS[6], row.messages === null ? unknown() : escapeHtml(row.messages), "number"),
    cell(COLUMNS[7], costHtml(row), "number"),
    cell(COLUMNS[8], guardHtml(row.guard)),
    cell(
      COLUMNS[9],
      `<span class="status-${row.status.kind}">${flagsUnbroken(escapeHtml(row.status.text))}</span>`,
    ),
    "</tr>",
  ].join("");
}

/** Messages of some totals: `27,130 SMS segments`, `+ 25 MMS messages`. */
function totalMessages(t: SendTotals): string {
  const parts = [plural(t.sms_segments, "SMS segment")];
  if (t.mms_messages > 0) parts.push(plural(t.mms_messages, "MMS message"));
  return parts.join(" + ");
}

function totalsRow(label: string, t: SendTotals, className: string): string {
  const none = t.projects > 0 && t.not_estimated === t.projects;
  const notEstimated =
    t.not_estimated === 0
      ? ""
      : ` <span class="unknown">(${formatCount(t.not_estimated)} not estimated: could not be read)</span>`;
  return [
    `<tr class="${className}">`,
    `<th scope="row" colspan="5" data-label="">${label} (${plural(t.projects, "project")} sending)${notEstimated}</th>`,
    cell(COLUMNS[5], none ? unknown() : formatCount(t.recipients), "number nowrap"),
    cell(COLUMNS[6], none ? unknown() : totalMessages(t), "number"),
    cell(COLUMNS[7], none ? unknown() : formatCents(t.estimated_cost_cents), "number nowrap"),
    cell(COLUMNS[8], ""),
    cell(COLUMNS[9], ""),
    "</tr>",
  ].join("");
}

function footHtml(overview: GalleryOverview): string {
  const totals = overview.totals;
  if (totals === null)
    return `<tfoot><tr class="total"><th scope="row" colspan="10" data-label="">Total: not known until planned (run with <span class="flag">--sandbox</span>, <span class="flag">--base-url</span> or <span class="flag">--plan</span>)</th></tr></tfoot>`;
  const rows = [totalsRow("Total", totals.overall, "total")];
  const f = overview.forecastTotals;
  if (f !== null && f.left > 0)
    rows.push(
      [
        `<tr class="subtotal forecast-total">`,
        `<th scope="row" colspan="5" data-label="">By the forecast, before the daily caps pause the sends</th>`,
        cell(
          COLUMNS[5],
          `<span class="nowrap">${formatCount(f.sent)}</span><br><span class="zone">${formatCount(f.left)} left</span>`,
          "number",
        ),
        cell(COLUMNS[6], ""),
        cell(COLUMNS[7], f.costCents === null ? unknown() : formatCents(f.costCents), "number nowrap"),
        cell(COLUMNS[8], ""),
        cell(COLUMNS[9], ""),
        "</tr>",
      ].join(""),
    );
  if (totals.by_organization.length > 1)
    for (const t of totals.by_organization)
      rows.push(totalsRow(escapeHtml(totalsOrganization(t)), t, "subtotal"));
  return `<tfoot>${rows.join("")}</tfoot>`;
}

export function overviewHtml(plan: GalleryPlanInfo, overview: GalleryOverview): string {
  const table =
    overview.rows.length === 0
      ? ""
      : [
          `<div class="table-wrap">`,
          `<table class="overview" aria-describedby="overview-note">`,
          `<thead><tr>${COLUMNS.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join("")}</tr></thead>`,
          `<tbody>${overview.rows.map(rowHtml).join("")}</tbody>`,
          footHtml(overview),
          `</table>`,
          `</div>`,
          `<p id="overview-note" class="note">In send order. The totals count the projects that send to their lists once the plan is applied (a test goes to its test contacts only; a paused, completed or draft project sends nothing); greyed rows do not send.</p>`,
        ].join("\n");
  return [
    `<section class="overview" aria-labelledby="overview-title">`,
    `<h2 id="overview-title">Overview: what sends when, to how many, for how much</h2>`,
    `<dl class="facts">${planFacts(plan)}</dl>`,
    table,
    `</section>`,
  ].join("\n");
}
