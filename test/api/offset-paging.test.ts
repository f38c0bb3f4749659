/**
 * The statistics' page loop (src/api/offset-paging.ts through `listStatsWindow`) over real HTTP on
 * loopback against a scripted server: a listing that cannot be read to its end fails, loudly; it
 * is never a listing cut short that the caller takes for whole.
 */
import { expect, it } from "vitest";
import { listStatsWindow } from "../../src/plan/refresh-stats.js";
import { stubbedClient } from "./stub-server.js";

const KEY = "pc_live_paging_stats_0000000000";
const WINDOW = { startDate: "2026-11-01", endDate: "2026-11-30" };

const bed = stubbedClient(KEY);

/** A stats answer of `rows` rows (ids from `from`), saying whether more follow. */
function statsPage(from: number, rows: number, hasMore: boolean) {
  const row = (n: number) => ({
    id: `p${n}`,
    name: `Project ${n}`,
    status: "completed",
    protocol: "sms",
    type: "broadcast",
    channel: "10dlc",
    organization_id: "o1",
    brand_id: "b1",
    campaign_id: "c1",
    total_recipients: 1,
    messages_sent: 1,
    messages_delivered: 1,
    messages_failed: 0,
    messages_opted_out: 0,
    replies_received: 0,
    survey_responses_count: 0,
    survey_completion_count: 0,
    total_url_clicks: 0,
    unique_url_clicks: 0,
    url_share_count: 0,
    actual_cost: "0.0100",
    created_at: "2026-11-02T00:00:00.000Z",
    completed_at: null,
    updated_at: "2026-11-02T00:00:00.000Z",
    organization_name: "Org",
    brand_name: "Brand",
    campaign_name: "Campaign",
  });
  const counts = (names: string[]) => Object.fromEntries(names.map((n) => [n, 0]));
  return {
    status: 200,
    body: {
      success: true,
      data: {
        projects: Array.from({ length: rows }, (_, i) => row(from + i)),
        summary: {
          ...counts(["totalProjects", "organizationCount", "brandCount", "campaignCount"]),
          statusBreakdown: counts(["draft", "active", "completed", "paused"]),
          messageStats: counts([
            "totalRecipients",
            "totalSent",
            "totalDelivered",
            "totalFailed",
            "totalOptedOut",
            "totalReplies",
            "totalUrlClicks",
            "totalUniqueUrlClicks",
            "totalUrlShares",
            "totalActualCost",
          ]),
          dateRange: { earliestProject: null, latestProject: null },
        },
        pagination: { limit: 1000, offset: from, totalCount: from + rows + (hasMore ? 1 : 0), hasMore },
        dateRange: WINDOW,
      },
    },
  };
}

it("reads every page by offset until no more follow", async () => {
  bed.stub.script(statsPage(0, 3, true), statsPage(3, 2, false));
  const seen: string[] = [];
  const listed = await listStatsWindow(
    (p) => bed.client.getProjectStats(p),
    WINDOW,
    (rows) => seen.push(...rows.map((r) => r.id)),
  );
  expect(listed).toEqual({ ok: true, pages: 2 });
  expect(seen).toEqual(["p0", "p1", "p2", "p3", "p4"]);
  expect(bed.stub.seen.map((r) => new URL(r.url, "http://x").searchParams.get("offset"))).toEqual(["0", "3"]);
});

it("a page that says more follow yet holds no row fails the listing, naming why", async () => {
  bed.stub.script(statsPage(0, 3, true), statsPage(3, 0, true));
  const listed = await listStatsWindow(
    (p) => bed.client.getProjectStats(p),
    WINDOW,
    () => {},
  );
  expect(listed.ok).toBe(false);
  expect(!listed.ok && listed.error).toMatchObject({ cause: "malformed-response", outcome: "none" });
  expect(!listed.ok && listed.error.message).toBe(
    "GET /projects/stats: HTTP 200 but the listing has no end: page 2 (offset 3) holds no row but says more follow",
  );
});
