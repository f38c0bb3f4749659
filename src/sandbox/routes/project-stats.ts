/**
 * GET /projects/stats. Dates are UTC calendar days (`YYYY-MM-DD`); `startDate` defaults to 30 days
 * before `endDate`, `endDate` to today on the virtual clock. Valid: startDate <= endDate,
 * endDate - startDate <= 31 days, startDate no more than 90 days before today. A project is in the
 * range when its life overlaps it: created before the end of endDate and updated_at on or after
 * the start of startDate. Rows are newest first (created_at, then project_id). `status` filters on
 * draft, active, completed, paused or all (default); `organizationId` narrows to that subtree.
 * Every number comes from the project's counters, which the send simulation (`simulation/`) moves
 * with each real send, receipt and reply (fixture `stats` are their starting value); the summary
 * sums the selected rows (all of them, not just the page), its cost from exact ten-thousandths.
 */
import {
  STATS_LIMIT_DEFAULT,
  STATS_LIMIT_MAX,
  STATS_LIMIT_MIN,
  STATS_MAX_AGE_DAYS,
  STATS_MAX_RANGE_DAYS,
  STATS_STATUS_FILTERS,
} from "../../contract/limits.js";
import type { ProjectStats, ProjectStatsRow } from "../../contract/resources.js";
import type { ApiRoute } from "../context.js";
import { type ApiResponse, invalid, ok } from "../http/responses.js";
import type { ProjectRecord, World } from "../state/world.js";
import { enumParam, isResponse, orgScope } from "./filters.js";

const DAY_MS = 86_400_000;

export const projectStatsRoute: ApiRoute = {
  method: "GET",
  template: "/projects/stats",
  handler: ({ query, auth, sandbox }) => {
    const w = sandbox.store.world;
    const todayMs = Math.floor(sandbox.clock.nowMs() / DAY_MS) * DAY_MS;
    const end = dateParam(query, "endDate", todayMs);
    if (isResponse(end)) return end;
    const start = dateParam(query, "startDate", end - 30 * DAY_MS);
    if (isResponse(start)) return start;
    if (start > end) return invalid(["startDate"], "startDate must not be after endDate");
    if (end - start > STATS_MAX_RANGE_DAYS * DAY_MS)
      return invalid(["endDate"], `The date range must be at most ${STATS_MAX_RANGE_DAYS} days`, "too_big");
    if (start < todayMs - STATS_MAX_AGE_DAYS * DAY_MS)
      return invalid(
        ["startDate"],
        `startDate must be no more than ${STATS_MAX_AGE_DAYS} days ago`,
        "too_small",
      );
    const limit = intParam(query, "limit", STATS_LIMIT_DEFAULT, STATS_LIMIT_MIN, STATS_LIMIT_MAX);
    if (isResponse(limit)) return limit;
    const offset = intParam(query, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
    if (isResponse(offset)) return offset;
    const status = enumParam(query, "status", STATS_STATUS_FILTERS);
    if (isResponse(status)) return status;
    const orgs = orgScope(w, auth, query.get("organizationId"));
    if (isResponse(orgs)) return orgs;
    const brand = query.get("brandId") || null;
    const campaign = query.get("campaignId") || null;
    const endExclusive = end + DAY_MS;
    const selected = Object.values(w.projects)
      .filter(
        (p) =>
          orgs.has(p.organization_id) &&
          (brand === null || p.brand_id === brand) &&
          (campaign === null || p.campaign_id === campaign) &&
          (status === null || status === "all" || p.status === status) &&
          Date.parse(p.created_at) < endExclusive &&
          Date.parse(p.updated_at) >= start,
      )
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || a.project_id.localeCompare(b.project_id));
    const rows = selected.map((p) => statsRow(w, p));
    const page = rows.slice(offset, offset + limit);
    const data: ProjectStats = {
      projects: page,
      summary: summarize(rows),
      pagination: { limit, offset, totalCount: rows.length, hasMore: offset + page.length < rows.length },
      dateRange: { startDate: day(start), endDate: day(end) },
    };
    return ok(data);
  },
};

function statsRow(w: World, p: ProjectRecord): ProjectStatsRow {
  const c = p.counters;
  return {
    id: p.project_id,
    name: p.name,
    status: p.status,
    protocol: p.protocol,
    type: p.type,
    channel: p.channel,
    organization_id: p.organization_id,
    brand_id: p.brand_id,
    campaign_id: p.campaign_id,
    total_recipients: p.total_recipients,
    messages_sent: c.messages_sent,
    messages_delivered: c.messages_delivered,
    messages_failed: c.messages_failed,
    messages_opted_out: c.messages_opted_out,
    replies_received: c.replies_received,
    survey_responses_count: c.survey_responses_count,
    survey_completion_count: c.survey_completion_count,
    total_url_clicks: c.total_url_clicks,
    unique_url_clicks: c.unique_url_clicks,
    url_share_count: c.url_share_count,
    actual_cost: `${Math.floor(c.actual_cost_e4 / 10_000)}.${String(c.actual_cost_e4 % 10_000).padStart(4, "0")}`,
    created_at: p.created_at,
    completed_at: p.completed_at,
    updated_at: p.updated_at,
    organization_name: w.organizations[p.organization_id]?.name ?? "",
    brand_name: w.brands[p.brand_id]?.name ?? "",
    campaign_name: w.tenDlcCampaigns[p.campaign_id]?.name ?? "",
  };
}

function summarize(rows: readonly ProjectStatsRow[]): ProjectStats["summary"] {
  const sum = (f: (r: ProjectStatsRow) => number): number => rows.reduce((a, r) => a + f(r), 0);
  const count = (s: string): number => rows.filter((r) => r.status === s).length;
  const created = rows.map((r) => r.created_at).sort();
  return {
    totalProjects: rows.length,
    organizationCount: new Set(rows.map((r) => r.organization_id)).size,
    brandCount: new Set(rows.map((r) => r.brand_id).filter((b) => b !== "")).size,
    campaignCount: new Set(rows.map((r) => r.campaign_id).filter((c) => c !== "")).size,
    statusBreakdown: {
      draft: count("draft"),
      active: count("active"),
      completed: count("completed"),
      paused: count("paused"),
    },
    messageStats: {
      totalRecipients: sum((r) => r.total_recipients),
      totalSent: sum((r) => r.messages_sent),
      totalDelivered: sum((r) => r.messages_delivered),
      totalFailed: sum((r) => r.messages_failed),
      totalOptedOut: sum((r) => r.messages_opted_out),
      totalReplies: sum((r) => r.replies_received),
      totalUrlClicks: sum((r) => r.total_url_clicks),
      totalUniqueUrlClicks: sum((r) => r.unique_url_clicks),
      totalUrlShares: sum((r) => r.url_share_count),
      totalActualCost: sum((r) => costE4(r.actual_cost)) / 10_000,
    },
    dateRange: { earliestProject: created[0] ?? null, latestProject: created[created.length - 1] ?? null },
  };
}

/** A 4-decimal cost string as an integer number of ten-thousandths (no float rounding). */
function costE4(text: string): number {
  const [whole = "0", frac = ""] = text.split(".");
  return Number(whole) * 10_000 + Number(frac.padEnd(4, "0").slice(0, 4));
}

function dateParam(query: URLSearchParams, name: string, fallback: number): number | ApiResponse {
  const value = query.get(name);
  if (value === null || value === "") return fallback;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms) || day(ms) !== value)
    return invalid([name], `${name} must be a date as YYYY-MM-DD`, "invalid_string");
  return ms;
}

function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number | ApiResponse {
  const value = query.get(name);
  if (value === null || value === "") return fallback;
  const n = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isNaN(n)) return invalid([name], `${name} must be an integer`, "invalid_type");
  if (n < min) return invalid([name], `${name} must be at least ${min}`, "too_small");
  if (n > max) return invalid([name], `${name} must be at most ${max}`, "too_big");
  return n;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
