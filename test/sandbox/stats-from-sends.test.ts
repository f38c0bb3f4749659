import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import { admin, api, GOTV_FOLLOWUP, GOTV_REMINDER, sandbox } from "./helpers.js";
import { advance, messages, scheduleProject } from "./sending-fixture.js";

// Two projects really send (one completes, one is paused midway); the stats must equal the sent log.
let sb: SandboxHandle;
beforeAll(async () => {
  sb = await sandbox();
  await admin(sb, "PATCH", "/simulation", { failure_rate: 0.1, reply_rate: 0.2, opt_out_share: 0.5 });
  await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:00Z");
  await scheduleProject(sb, GOTV_FOLLOWUP, "2026-12-01T15:00:00Z");
  await advance(sb, 1000);
  await api(sb, "POST", `/projects/${GOTV_FOLLOWUP}/pause`, {});
  await advance(sb, 15 * 60_000);
});
afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

const e4 = (n: number) => `${Math.floor(n / 10_000)}.${String(n % 10_000).padStart(4, "0")}`;

describe("GET /projects/stats from real sends", () => {
  test("rows and summary equal the sent log", async () => {
    const r = await api(sb, "GET", "/projects/stats?startDate=2026-11-15&endDate=2026-12-01");
    expect(r.status).toBe(200);
    expectShape("stats", r.body);
    const data = r.body.data;
    const sent = await messages(sb);
    let totalCost = 0;
    for (const id of [GOTV_REMINDER, GOTV_FOLLOWUP]) {
      const mine = sent.filter((m) => m.project_id === id);
      const row = data.projects.find((p: { id: string }) => p.id === id);
      const live = (await api(sb, "GET", `/projects/${id}`)).body.data;
      const cost = mine.reduce((a, m) => a + m.cost_e4, 0);
      totalCost += cost;
      expect(row).toMatchObject({
        messages_sent: mine.length,
        messages_delivered: mine.filter((m) => m.status === "delivered").length,
        messages_failed: mine.filter((m) => m.status === "failed").length,
        replies_received: mine.filter((m) => m.conversation_id !== null).length,
        actual_cost: e4(cost),
        total_recipients: 38,
        updated_at: live.updated_at,
      });
      const optOuts = Object.values(sb.store.world.conversations).filter(
        (c) => c.project_id === id && c.opted_out,
      ).length;
      expect(row.messages_opted_out).toBe(optOuts);
    }
    const reminder = data.projects.find((p: { id: string }) => p.id === GOTV_REMINDER);
    expect(reminder).toMatchObject({ status: "completed", completed_at: "2026-12-01T15:00:03.000Z" });
    expect(data.projects.find((p: { id: string }) => p.id === GOTV_FOLLOWUP)).toMatchObject({
      status: "paused",
      messages_sent: 20,
      completed_at: null,
    });
    // The example world's runoff notice was sent before the clock's start: its figures are the
    // fixture's counters, added to what the two projects sent here.
    const seeded = data.projects.filter(
      (p: { id: string }) => p.id !== GOTV_REMINDER && p.id !== GOTV_FOLLOWUP,
    );
    const seededSum = (k: string) =>
      seeded.reduce((a: number, p: Record<string, unknown>) => a + Number(p[k] ?? 0), 0);
    const stats = data.summary.messageStats;
    expect(stats).toMatchObject({
      totalSent: sent.length + seededSum("messages_sent"),
      totalDelivered: sent.filter((m) => m.status === "delivered").length + seededSum("messages_delivered"),
      totalFailed: sent.filter((m) => m.status === "failed").length + seededSum("messages_failed"),
      totalReplies: sent.filter((m) => m.conversation_id !== null).length + seededSum("replies_received"),
      totalActualCost: (totalCost + Math.round(seededSum("actual_cost") * 10_000)) / 10_000,
    });
    expect(stats.totalRecipients).toBe(
      data.projects.reduce((a: number, p: { total_recipients: number }) => a + p.total_recipients, 0),
    );
    // Completed: the reminder and the runoff notice in English and Spanish.
    expect(data.summary.statusBreakdown).toEqual({ draft: 1, active: 0, completed: 3, paused: 1 });
  });
});
