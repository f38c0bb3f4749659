/** Hand-made snapshots of the results store (src/results/snapshot.ts), for the tests of reports and views. */
import type { ResultsSnapshot } from "../../src/results/snapshot.js";
import { hourOf } from "../../src/results/snapshot.js";

/** Lifetime counts of a snapshot; delivered defaults to sent, cost (in 1/10,000 dollars) to a cent a message. */
export interface SnapCounts {
  sent: number;
  delivered?: number;
  replies?: number;
  optedOut?: number;
  clicks?: number;
  costE4?: number;
}

/** A snapshot of project `id` at `at` with these lifetime counts (Adams County's, unless `more` says). */
export function snap(
  id: string,
  at: string,
  c: SnapCounts,
  more: Partial<ResultsSnapshot> = {},
): ResultsSnapshot {
  const cost = c.costE4 ?? c.sent * 100;
  return {
    format_version: 1,
    project_id: id,
    hour: hourOf(new Date(at)),
    at,
    project_name: `Project ${id}`,
    organization_id: "org-1",
    organization_name: "Adams County Democrats",
    status: "active",
    type: "broadcast",
    channel: "10dlc",
    protocol: "sms",
    brand_id: "b",
    campaign_id: "c",
    created_at: "2026-10-01T00:00:00.000Z",
    updated_at: "2026-10-01T00:00:00.000Z",
    completed_at: null,
    total_recipients: 100,
    messages_sent: c.sent,
    messages_delivered: c.delivered ?? c.sent,
    messages_failed: c.sent - (c.delivered ?? c.sent),
    messages_opted_out: c.optedOut ?? 0,
    replies_received: c.replies ?? 0,
    survey_responses_count: 0,
    survey_completion_count: 0,
    total_url_clicks: c.clicks ?? 0,
    unique_url_clicks: c.clicks ?? 0,
    url_share_count: 0,
    actual_cost: `${Math.floor(cost / 10_000)}.${String(cost % 10_000).padStart(4, "0")}`,
    ...more,
  };
}
