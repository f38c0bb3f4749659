/**
 * A results snapshot: one project's statistics row as `GET /projects/stats` gave it at an hour of
 * the API's clock (schemas/results-snapshot.schema.json; docs/results.md). Pure.
 *
 * Identity: (project id, hour of the API's clock). A project has at most one snapshot per hour,
 * in every store: the first one recorded in that hour stays, a second is dropped.
 */
import { STATS_ROW_COUNTERS } from "../contract/limits.js";
import type { ProjectStatsRow } from "../contract/resources.js";

/** The line format's version (`format_version`). */
export const SNAPSHOT_FORMAT_VERSION = 1;

/** The integer counters a statistics row carries, in the row's (and the line's) order. */
export const SNAPSHOT_COUNTERS = STATS_ROW_COUNTERS;

export type SnapshotCounter = (typeof SNAPSHOT_COUNTERS)[number];

/**
 * One snapshot, as a line of the files and a row of the PostgreSQL table. Invariants: `hour` is
 * `at` cut to its hour (`YYYY-MM-DDTHH:00:00Z`); counters are non-negative integers; `actual_cost`
 * is dollars with exactly 4 decimals.
 */
export type ResultsSnapshot = {
  readonly format_version: typeof SNAPSHOT_FORMAT_VERSION;
  readonly project_id: string;
  readonly hour: string;
  readonly at: string;
  readonly project_name: string;
  readonly organization_id: string;
  readonly organization_name: string;
  readonly status: string;
  readonly type: string;
  readonly channel: string;
  readonly protocol: string;
  readonly brand_id: string;
  readonly campaign_id: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly completed_at: string | null;
  readonly actual_cost: string;
} & { readonly [K in SnapshotCounter]: number };

const HOUR_MS = 3_600_000;

/** The hour of `at` (UTC), `YYYY-MM-DDTHH:00:00Z`. */
export function hourOf(at: Date): string {
  return `${new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString().slice(0, 13)}:00:00Z`;
}

/** The month of an hour or instant (`YYYY-MM`): the file a snapshot goes in. */
export function monthOf(hourOrInstant: string): string {
  return hourOrInstant.slice(0, 7);
}

/** The snapshot's identity: `<project id>@<hour>`. */
export function snapshotKey(s: Pick<ResultsSnapshot, "project_id" | "hour">): string {
  return `${s.project_id}@${s.hour}`;
}

/** `actual_cost` with exactly 4 decimals ("12.34" -> "12.3400"); undefined when it is not a decimal. */
export function costWithFourDecimals(text: string): string | undefined {
  const match = /^(\d+)(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (match === null) return undefined;
  return `${String(Number(match[1]))}.${(match[2] ?? "").padEnd(4, "0")}`;
}

/** The snapshot of `row` read at `at` on the API's clock; undefined when its cost is no decimal. */
export function snapshotOfRow(row: ProjectStatsRow, at: Date): ResultsSnapshot | undefined {
  const cost = costWithFourDecimals(row.actual_cost);
  if (cost === undefined) return undefined;
  return {
    format_version: SNAPSHOT_FORMAT_VERSION,
    project_id: row.id,
    hour: hourOf(at),
    at: at.toISOString(),
    project_name: row.name,
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    status: row.status,
    type: row.type,
    channel: row.channel,
    protocol: row.protocol,
    brand_id: row.brand_id,
    campaign_id: row.campaign_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
    total_recipients: row.total_recipients,
    messages_sent: row.messages_sent,
    messages_delivered: row.messages_delivered,
    messages_failed: row.messages_failed,
    messages_opted_out: row.messages_opted_out,
    replies_received: row.replies_received,
    survey_responses_count: row.survey_responses_count,
    survey_completion_count: row.survey_completion_count,
    total_url_clicks: row.total_url_clicks,
    unique_url_clicks: row.unique_url_clicks,
    url_share_count: row.url_share_count,
    actual_cost: cost,
  };
}

/**
 * Whether two snapshots of one project say the same: every member but `hour` and `at` equal. A
 * snapshot the same as the project's previous one carries nothing and is not written.
 */
export function sameFigures(a: ResultsSnapshot, b: ResultsSnapshot): boolean {
  for (const key of Object.keys(a) as (keyof ResultsSnapshot)[])
    if (key !== "hour" && key !== "at" && a[key] !== b[key]) return false;
  return true;
}

/**
 * The directory of an organization's files: its name in lower case, every run of characters other
 * than a-z and 0-9 as one `-` (accents dropped first: "Peña" -> "pena"); its id when the name has
 * none of those characters. Two organizations whose names give one slug share a directory (each
 * line names its organization by id).
 */
export function organizationDirectory(name: string, id: string): string {
  const slug = name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug !== "") return slug;
  return (
    id
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "organization"
  );
}
