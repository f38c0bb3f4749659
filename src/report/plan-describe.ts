/**
 * Wording shared by the human and Markdown plan reports: symbols, request summaries, estimates,
 * counts and the summary line. Pure; tolerant of request bodies it does not recognise (it prints
 * them as JSON rather than failing).
 */
import { DateTime } from "luxon";
import { itemTotal, summaryTotals } from "../plan/summary.js";
import type { Action, ActionKind, ActionStatus, Plan, ProjectPlan, SendEstimate } from "../plan/types.js";

/** ASCII symbol per action status (legend in the report header and docs/reports.md). */
export const STATUS_SYMBOL: Readonly<Record<ActionStatus, string>> = {
  planned: "+",
  deferred: "~",
  blocked: "!",
};
/** Marks a drift entry. */
export const DRIFT_SYMBOL = "*";
/** Marks a project with nothing to do. */
export const QUIET_SYMBOL = "=";
/** Marks a project that could not be read. */
export const UNREAD_SYMBOL = "?";

/** The legend: each symbol and what it means (deferred: waits for something outside campaignctl). */
export const LEGEND: readonly (readonly [string, string])[] = [
  [STATUS_SYMBOL.planned, "planned"],
  [STATUS_SYMBOL.deferred, "deferred"],
  [STATUS_SYMBOL.blocked, "blocked"],
  [DRIFT_SYMBOL, "drift"],
  [QUIET_SYMBOL, "nothing to do"],
  [UNREAD_SYMBOL, "could not be read"],
];

const ACTION_KINDS: readonly ActionKind[] = ["test", "schedule", "pause"];

/** `12345` -> `12,345` (fixed grouping, independent of the locale). */
export function formatCount(n: number): string {
  const sign = n < 0 ? "-" : "";
  const digits = String(Math.trunc(Math.abs(n)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Cents (possibly fractional) to dollars rounded to the cent: `24690` -> `$246.90`. */
export function formatCents(cents: number): string {
  const whole = Math.round(cents);
  return `$${formatCount(Math.trunc(whole / 100))}.${String(whole % 100).padStart(2, "0")}`;
}

/** `1 thing` / `2 things`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** True when a project warrants only one line: read, sends nothing, nothing to do, nothing to say. */
export function isQuiet(project: ProjectPlan): boolean {
  return (
    project.live !== null &&
    !project.sends &&
    project.actions.length === 0 &&
    project.drift.length === 0 &&
    project.diagnostics.length === 0 &&
    project.notes.length === 0
  );
}

/** The estimate as one phrase: recipients, segments and encoding, messages, cost. */
export function describeEstimate(e: SendEstimate): string {
  const cost = `about ${formatCents(e.estimated_cost_cents)}`;
  const who = plural(e.recipients, "recipient");
  if (e.segments === null) return `${who}, ${e.encoding} (segments do not apply), ${cost}`;
  const messages = plural(e.recipients * e.segments, "segment");
  return `${who} x ${plural(e.segments, "segment")} (${e.encoding}) = ${messages}, ${cost}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What an action's request does, in words (without method and path). */
export function describeRequest(action: Action): string {
  const body = action.request.body;
  if (!isRecord(body)) return `body ${JSON.stringify(body) ?? "(none)"}`;
  switch (action.kind) {
    case "test":
      return describeTest(body);
    case "schedule":
      return describeSchedule(body);
    case "pause":
      return typeof body.reason === "string"
        ? `reason ${JSON.stringify(body.reason)}`
        : 'no reason given (the API stores "manual")';
  }
}

function describeTest(body: Record<string, unknown>): string {
  const contacts = body.test_contacts;
  if (!Array.isArray(contacts)) return `body ${JSON.stringify(body)}`;
  const phones = contacts.map((c: unknown) => (isRecord(c) && typeof c.phone === "string" ? c.phone : "?"));
  const withValues = contacts.filter((c: unknown) => isRecord(c) && isRecord(c.merge_values)).length;
  const values = withValues > 0 ? ` (${formatCount(withValues)} with merge values)` : "";
  return `to ${plural(contacts.length, "test contact")}: ${phones.join(", ")}${values}`;
}

function describeSchedule(body: Record<string, unknown>): string {
  const at = body.scheduled_at;
  const zone = body.scheduled_timezone;
  const bypass = body.daily_cap_bypass;
  const bypassText =
    bypass === true
      ? "daily cap bypass ON"
      : bypass === false
        ? "daily cap bypass off"
        : "daily cap bypass not set";
  if (typeof at !== "string") return `at (no time given), ${bypassText}`;
  return `at ${describeZonedTime(at, zone)}, ${bypassText}`;
}

/**
 * An instant in its timezone and in UTC, for schedules: `2026-11-03 09:00 America/Chicago (15:00 UTC)`,
 * with the UTC date when it differs from the local one. `zone` is an IANA name; when it is not a
 * string the instant's own offset is used (`UTC-06:00`). Tolerant: an unparseable instant is
 * returned as given, an unknown zone is named.
 */
export function describeZonedTime(at: string, zone: unknown): string {
  const when = DateTime.fromISO(at, { setZone: true });
  if (!when.isValid) return at;
  const local = typeof zone === "string" ? when.setZone(zone) : when;
  if (!local.isValid) return `${at} (unknown time zone ${String(zone)})`;
  const utc = when.toUTC();
  const fmt = (d: DateTime, withDate: boolean): string => {
    const time = d.second === 0 && d.millisecond === 0 ? d.toFormat("HH:mm") : d.toFormat("HH:mm:ss");
    return withDate ? `${d.toFormat("yyyy-MM-dd")} ${time}` : time;
  };
  const sameDay = utc.toISODate() === local.toISODate();
  const zoneText = typeof zone === "string" ? zone : `UTC${local.toFormat("ZZ")}`;
  return `${fmt(local, true)} ${zoneText} (${fmt(utc, !sameDay)} UTC)`;
}

/** Counts of a plan's actions by status, and of planned actions by kind. */
export interface ActionTally {
  readonly byStatus: Readonly<Record<ActionStatus, number>>;
  readonly plannedByKind: Readonly<Record<ActionKind, number>>;
}

export function tallyActions(projects: readonly ProjectPlan[]): ActionTally {
  const byStatus: Record<ActionStatus, number> = { planned: 0, deferred: 0, blocked: 0 };
  const plannedByKind: Record<ActionKind, number> = { test: 0, schedule: 0, pause: 0 };
  for (const p of projects) {
    for (const a of p.actions) {
      byStatus[a.status] += 1;
      if (a.status === "planned") plannedByKind[a.kind] += 1;
    }
  }
  return { byStatus, plannedByKind };
}

/** `2 test, 1 schedule` (kinds with a zero count left out), or `` when none. */
export function describeKinds(byKind: Readonly<Record<ActionKind, number>>): string {
  return ACTION_KINDS.filter((k) => byKind[k] > 0)
    .map((k) => `${formatCount(byKind[k])} ${k}`)
    .join(", ");
}

/**
 * The closing line, from the plan's own summary, so it says what the views printed: to do counts
 * planned actions and email list syncs (broken down by kind), blocked counts blocked actions and
 * blocked items, the findings every diagnostic of the plan, then the items beside the projects:
 * `Plan: 3 to do (2 test, 1 schedule), 1 deferred, 1 blocked, 1 drifted; 2 errors, 0 warnings. 7 API requests.`
 * `Plan: 2 to do (1 test, 1 email list sync), 0 deferred, 2 blocked, 0 drifted; 5 errors, 1 warning;
 * 2 email lists, 1 email campaign, 2 reply rule sets. 9 API requests.`
 */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const totals = summaryTotals(s);
  const kinds = [
    describeKinds(tallyActions(plan.projects).plannedByKind),
    s.email_lists.planned > 0 ? plural(s.email_lists.planned, "email list sync") : "",
  ]
    .filter((k) => k !== "")
    .join(", ");
  const skipped = s.email_lists.skipped + s.email_campaigns.skipped + s.reply_rule_sets.skipped;
  const items = [
    plural(itemTotal(s.email_lists), "email list"),
    plural(itemTotal(s.email_campaigns), "email campaign"),
    plural(itemTotal(s.reply_rule_sets), "reply rule set"),
  ].filter((phrase) => !phrase.startsWith("0 "));
  return (
    `Plan: ${formatCount(totals.toDo)} to do${kinds === "" ? "" : ` (${kinds})`}, ` +
    `${formatCount(s.deferred)} deferred, ${formatCount(totals.blocked)} blocked, ${formatCount(s.drifted)} drifted` +
    `${skipped > 0 ? `, ${formatCount(skipped)} skipped (email not available)` : ""}; ` +
    `${plural(s.errors, "error")}, ${plural(s.warnings, "warning")}` +
    `${items.length === 0 ? "" : `; ${items.join(", ")}`}. ${plural(plan.requests.total, "API request")}.`
  );
}

/** Anything with request counts by endpoint (a plan, an apply result). */
export interface HasEndpointCounts {
  readonly requests: { readonly by_endpoint: Readonly<Record<string, number>> };
}

/** Request counts by endpoint, most requests first, then by endpoint. */
export function endpointCounts(source: HasEndpointCounts): readonly (readonly [string, number])[] {
  return Object.entries(source.requests.by_endpoint).sort((a, b) =>
    a[1] !== b[1] ? b[1] - a[1] : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
  );
}

/** The live status -> desired state phrase of a project. */
export function describeTransition(project: ProjectPlan): string {
  return project.live === null
    ? `live status unknown, desired ${project.desired}`
    : `${project.live.status} -> desired ${project.desired}`;
}
