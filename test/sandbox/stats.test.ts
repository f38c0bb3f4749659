import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import { admin, api, CHILD_KEY, CHILD_ORG, EARLY_VOTE, GOTV_REMINDER, ORG, sandbox } from "./helpers.js";

// The example clock starts on 2026-12-01; its four projects were created 2026-11-16 .. 2026-11-24.
let sb: SandboxHandle;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

/** The runoff notice of the example world (runoff-notice.yaml), sent on 2026-11-30. */
const RUNOFF_EN = "9a000000-0000-4000-8000-000000000005";
const RUNOFF_ES = "9a000000-0000-4000-8000-000000000006";

const stats = (q: string, key?: string) => api(sb, "GET", `/projects/stats?${q}`, key ? { key } : {});

describe("GET /projects/stats bounds", () => {
  test.each([
    ["startDate=2026-11-01&endDate=2026-12-02", 200],
    ["startDate=2026-11-01&endDate=2026-12-03", 400],
    ["startDate=2026-09-02&endDate=2026-09-10", 200],
    ["startDate=2026-09-01&endDate=2026-09-10", 400],
    ["startDate=2026-11-20&endDate=2026-11-19", 400],
    ["startDate=2026-11-31&endDate=2026-12-01", 400],
    ["limit=1", 200],
    ["limit=1000", 200],
    ["limit=0", 400],
    ["limit=1001", 400],
    ["limit=ten", 400],
    ["offset=0", 200],
    ["offset=-1", 400],
    ["status=all", 200],
    ["status=scheduled", 400],
  ])("%s -> %i", async (q, status) => {
    const r = await stats(q);
    expect(r.status).toBe(status);
    expectShape(status === 200 ? "stats" : "validationError", r.body);
  });
});

describe("GET /projects/stats content", () => {
  test("rows cover the range, newest first, and updated_at equals GET /projects/{id}", async () => {
    const r = await stats("startDate=2026-11-15&endDate=2026-12-01");
    // 5 and 6: the runoff notice, sent on 2026-11-30 (completed).
    expect(r.body.data.projects.map((p: { id: string }) => p.id.slice(-1))).toEqual([
      "5",
      "6",
      "2",
      "1",
      "3",
      "4",
    ]);
    for (const row of r.body.data.projects) {
      const live = await api(sb, "GET", `/projects/${row.id}`);
      expect(row.updated_at).toBe(live.body.data.updated_at);
    }
    expect(r.body.data.summary).toMatchObject({
      totalProjects: 6,
      organizationCount: 1,
      brandCount: 1,
      campaignCount: 1,
      statusBreakdown: { draft: 3, active: 0, completed: 2, paused: 0 },
      dateRange: { earliestProject: "2026-11-16T19:00:00.000Z", latestProject: "2026-11-25T17:00:00.000Z" },
    });
    expect(r.body.data.dateRange).toEqual({ startDate: "2026-11-15", endDate: "2026-12-01" });
    expect(r.body.data.projects[0]).toMatchObject({
      organization_name: "Riverside Democrats",
      brand_name: "Riverside Democrats",
      campaign_name: "GOTV 2026",
      actual_cost: "0.3800", // the English runoff notice, sent (the fixture's counters)
    });
  });

  test("a project is selected when its life overlaps the range", async () => {
    const r = await stats("startDate=2026-11-25&endDate=2026-11-30");
    expect(r.body.data.projects.map((p: { id: string }) => p.id)).toEqual([RUNOFF_EN, RUNOFF_ES, EARLY_VOTE]);
    const before = await stats("startDate=2026-11-01&endDate=2026-11-15");
    expect(before.body.data.projects).toEqual([]);
    expect(before.body.data.summary.dateRange).toEqual({ earliestProject: null, latestProject: null });
  });

  test("pagination and filters", async () => {
    const page = await stats("startDate=2026-11-15&endDate=2026-12-01&limit=3&offset=2");
    expect(page.body.data.pagination).toEqual({ limit: 3, offset: 2, totalCount: 6, hasMore: true });
    expect(page.body.data.projects).toHaveLength(3);
    const first = await stats("startDate=2026-11-15&endDate=2026-12-01&limit=1");
    expect(first.body.data.pagination).toEqual({ limit: 1, offset: 0, totalCount: 6, hasMore: true });
    const drafts = await stats("startDate=2026-11-15&endDate=2026-12-01&status=draft");
    expect(drafts.body.data.summary.totalProjects).toBe(3);
    const orgFiltered = await stats(`startDate=2026-11-15&endDate=2026-12-01&organizationId=${CHILD_ORG}`);
    expect(orgFiltered.body.data.projects).toEqual([]);
    expect((await stats(`organizationId=${ORG}`, CHILD_KEY)).status).toBe(403);
    expect(
      (await stats("campaignId=nope&startDate=2026-11-15&endDate=2026-12-01")).body.data.summary
        .totalProjects,
    ).toBe(0);
  });

  test("a change shows in the row's updated_at", async () => {
    await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, { name: "GOTV Reminder (edited)" });
    const live = (await api(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data;
    const row = (await stats("")).body.data.projects.find((p: { id: string }) => p.id === GOTV_REMINDER);
    expect(row).toMatchObject({ name: "GOTV Reminder (edited)", updated_at: live.updated_at });
  });
});
