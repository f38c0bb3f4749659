/**
 * Wording of who gets what, when, and for how much, shared by the plan's terminal, Markdown and
 * gallery views: the audience by name, the schedule in the recipients' zone and in UTC, whether a
 * project sends, the send order of an overview, and the totals. Pure.
 */
import type {
  NamedRecord,
  OrganizationTotals,
  PlanSchedule,
  ProjectPlan,
  SendTotals,
} from "../plan/types.js";
import { describeZonedTime, formatCents, formatCount, plural } from "./plan-describe.js";

/** A record's name, or its id when the key cannot see it. */
export function recordName(record: NamedRecord): string {
  return record.name ?? record.id;
}

/** `Ward 3 Likely Voters, Do Not Text` (ids for records without a name), or `none`. */
export function recordNames(records: readonly NamedRecord[]): string {
  return records.length === 0 ? "none" : records.map(recordName).join(", ");
}

/** `Ward 3 Likely Voters (e1000000-...)`, `e1000000-... (name not visible to the key)`. */
export function recordWithId(record: NamedRecord): string {
  return record.name === null
    ? `${record.id} (name not visible to the key)`
    : `${record.name} (${record.id})`;
}

/** Records with their ids, `, `-separated, or `none`. */
export function recordsWithIds(records: readonly NamedRecord[]): string {
  return records.length === 0 ? "none" : records.map(recordWithId).join(", ");
}

/**
 * `2026-12-07 10:00 America/Chicago (16:00 UTC)`; `at once when apply schedules it (at: now),
 * America/Chicago`; an unreadable time as written.
 */
export function describePlanSchedule(s: PlanSchedule): string {
  if (s.utc === null) {
    const zone = s.timezone === null ? "" : `, ${s.timezone}`;
    return s.at === "now" ? `at once when apply schedules it (at: now)${zone}` : `${s.at}${zone}`;
  }
  // Without a timezone, the instant in its own offset as written.
  return describeZonedTime(s.timezone === null ? s.at : s.utc, s.timezone ?? undefined);
}

/**
 * When the project sends to its lists, or why it does not: the schedule, `not scheduled` (it sends
 * but has no time, e.g. its schedule is missing), or `no: ...`.
 */
export function describeSend(p: ProjectPlan): string {
  if (p.sends) return p.schedule === null ? "not scheduled" : describePlanSchedule(p.schedule);
  if (p.live?.status === "completed") return "no: completed";
  switch (p.desired) {
    case "paused":
      return "no: paused";
    case "tested":
      return "no: test contacts only";
    case "draft":
      return "no: draft";
    case "scheduled":
      return "no";
  }
}

/** {@link describeSend}, and for a project that does not send, the schedule it has. */
export function describeSendWithSchedule(p: ProjectPlan): string {
  const send = describeSend(p);
  const s = p.schedule;
  if (p.sends || s === null) return send;
  return `${send}; ${s.source === "file" ? "the file's schedule is" : "the live schedule was"} ${describePlanSchedule(s)}`;
}

/**
 * Where a project goes in send order: `[group, instant]`. Sending projects first: `at: now` (sent
 * when applied) before timed ones (by instant), then sending projects without a time; then the rest.
 */
export function sendRank(p: ProjectPlan): readonly [number, number] {
  if (!p.sends) return [3, 0];
  const s = p.schedule;
  if (s !== null && s.at === "now" && s.utc === null) return [0, 0];
  if (s !== null && s.utc !== null) return [1, Date.parse(s.utc)];
  return [2, 0];
}

/** Sorts by `rank` (a `[group, instant]` pair), stably: ties keep the given order. */
export function byRank<T>(items: readonly T[], rank: (item: T) => readonly [number, number]): T[] {
  return items
    .map((item, i) => ({ item, i, r: rank(item) }))
    .sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1] || a.i - b.i)
    .map((x) => x.item);
}

/**
 * Totals in one phrase: `2 projects, 12,385 recipients, 24,730 SMS segments, about $741.90`, with
 * MMS messages when there are any and how many projects have no estimate; `nothing sends to its
 * lists`; `1 project, not estimated (could not be read)` when none has an estimate.
 */
export function describeSendTotals(t: SendTotals): string {
  if (t.projects === 0) return "nothing sends to its lists";
  if (t.not_estimated === t.projects)
    return `${plural(t.projects, "project")}, not estimated (could not be read)`;
  const unknown =
    t.not_estimated === 0 ? "" : ` (${formatCount(t.not_estimated)} not estimated: could not be read)`;
  const parts = [`${plural(t.projects, "project")}${unknown}`, plural(t.recipients, "recipient")];
  parts.push(plural(t.sms_segments, "SMS segment"));
  if (t.mms_messages > 0) parts.push(plural(t.mms_messages, "MMS message"));
  parts.push(`about ${formatCents(t.estimated_cost_cents)}`);
  return parts.join(", ");
}

/** The name of an organization's totals: its name, or `organization not known` for the null entry. */
export function totalsOrganization(t: OrganizationTotals): string {
  return t.organization === null ? "organization not known" : recordName(t.organization);
}
