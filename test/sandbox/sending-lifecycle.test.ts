import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, api, EARLY_VOTE, GOTV_REMINDER, sandbox } from "./helpers.js";
import {
  advance,
  expectedAudience,
  fixtureWith,
  messages,
  project,
  scheduleProject,
} from "./sending-fixture.js";

// The example clock starts 2026-12-01T15:00:00Z; GOTV Reminder targets Ward 3 minus Do Not Text.
const NUMBERS = ["+15035550101", "+15035550102"];
let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs).toEqual([]);
  await sb?.close();
  sb = undefined;
});

describe("a scheduled project on the virtual clock", () => {
  test("goes active at its time, sends to exactly the audience, then completes", async () => {
    const fixture = fixtureWith(() => {});
    sb = await sandbox({ fixture });
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T16:00:00Z");
    await advance(sb, 59 * 60_000);
    expect((await project(sb, GOTV_REMINDER)).status).toBe("scheduled");
    expect(await messages(sb)).toEqual([]);

    await advance(sb, 60_000);
    const active = await project(sb, GOTV_REMINDER);
    const audience = expectedAudience(fixture);
    expect(audience).toHaveLength(38);
    expect(active).toMatchObject({ status: "active", total_recipients: 38 });
    expect(active.updated_at).toBe("2026-12-01T16:00:00.000Z");
    expect(await messages(sb)).toHaveLength(10);

    await advance(sb, 3000);
    const done = await project(sb, GOTV_REMINDER);
    expect(done).toMatchObject({ status: "completed", completed_at: "2026-12-01T16:00:03.000Z" });
    const sent = await messages(sb, `?project_id=${GOTV_REMINDER}`);
    expect(sent.map((m) => m.to)).toEqual(audience);
    expect(sent.map((m) => m.from)).toEqual(audience.map((_, i) => NUMBERS[i % 2]));
    expect(sent[0]?.text).toBe(
      "Hi Maria, the Ward 3 runoff is tomorrow, Tue Dec 8. Polls are open 7am-7pm at Riverside Community Center. Reply STOP to opt out",
    );
    expect(sent.map((m) => m.sent_at.slice(11, 19))).toEqual(
      audience.map((_, i) => `16:00:0${Math.floor(i / 10)}`),
    );
    const live = (await api(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data;
    expect(live).toMatchObject({ status: "completed", total_recipients: 38, updated_at: done.updated_at });
  });

  test("sending moves the counters but not updated_at: only state changes version a project", async () => {
    sb = await sandbox();
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T16:00:00Z");
    await advance(sb, 60 * 60_000);
    const active = await project(sb, GOTV_REMINDER);
    expect(active).toMatchObject({ status: "active", updated_at: "2026-12-01T16:00:00.000Z" });
    await advance(sb, 2000);
    const sending = await project(sb, GOTV_REMINDER);
    expect(sending.status).toBe("active");
    expect(sending.counters.messages_sent).toBeGreaterThan(active.counters.messages_sent);
    expect(sending.updated_at).toBe(active.updated_at);
    await advance(sb, 60_000);
    const done = await project(sb, GOTV_REMINDER);
    expect(done).toMatchObject({ status: "completed", updated_at: "2026-12-01T16:00:03.000Z" });
    expect(done.counters.messages_delivered).toBeGreaterThan(0);
  });

  test("receipts follow the sends and the counters match the sent log", async () => {
    sb = await sandbox();
    await admin(sb, "PATCH", "/simulation", { failure_rate: 0.25, reply_rate: 0 });
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:00Z");
    await advance(sb, 10_000);
    const sent = await messages(sb);
    const failed = sent.filter((m) => m.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(sent.every((m) => m.status === (m.error_code === null ? "delivered" : "failed"))).toBe(true);
    const { counters } = await project(sb, GOTV_REMINDER);
    expect(counters).toMatchObject({
      messages_sent: 38,
      messages_delivered: 38 - failed.length,
      messages_failed: failed.length,
      actual_cost_e4: sent.reduce((a, m) => a + m.cost_e4, 0),
    });
  });

  test("scheduled now or in the past: active at once, no lead time", async () => {
    sb = await sandbox();
    await scheduleProject(sb, GOTV_REMINDER, "2020-01-01T00:00:00Z");
    await advance(sb, 0);
    expect((await project(sb, GOTV_REMINDER)).status).toBe("active");
    expect(await messages(sb)).toHaveLength(10);
  });

  test("a fixture's scheduled project starts at its scheduled_at", async () => {
    sb = await sandbox();
    await admin(sb, "POST", "/clock/set", { at: "2026-12-03T14:59:59Z" });
    expect((await project(sb, EARLY_VOTE)).status).toBe("scheduled");
    await advance(sb, 1000);
    expect((await project(sb, EARLY_VOTE)).status).toBe("active");
  });
});

describe("pause and resume", () => {
  test("a pause through the API stops sending; resume continues where it stopped", async () => {
    sb = await sandbox();
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:00Z");
    await advance(sb, 1000);
    expect(await messages(sb)).toHaveLength(20);
    const paused = await api(sb, "POST", `/projects/${GOTV_REMINDER}/pause`, { body: { reason: "typo" } });
    expect(paused.status).toBe(200);
    await advance(sb, 60_000);
    expect(await messages(sb)).toHaveLength(20);
    expect(await project(sb, GOTV_REMINDER)).toMatchObject({ status: "paused", pause_reason: "typo" });

    const resumed = await admin(sb, "POST", `/projects/${GOTV_REMINDER}/resume`);
    expect(resumed.body.data.status).toBe("active");
    await advance(sb, 0);
    expect(await messages(sb)).toHaveLength(30);
    await advance(sb, 1000);
    const sent = await messages(sb);
    expect(new Set(sent.map((m) => m.to)).size).toBe(38);
    expect(await project(sb, GOTV_REMINDER)).toMatchObject({ status: "completed", pause_reason: null });
    expect((await admin(sb, "POST", `/projects/${GOTV_REMINDER}/resume`)).status).toBe(400);
    expect((await admin(sb, "POST", "/projects/nope/resume")).status).toBe(404);
  });

  test("reset drops the sends and the agenda of the old world", async () => {
    sb = await sandbox();
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:00Z");
    await advance(sb, 1000);
    await admin(sb, "POST", "/reset");
    await advance(sb, 60_000);
    expect(await messages(sb)).toEqual([]);
    expect((await project(sb, GOTV_REMINDER)).status).toBe("draft");
  });

  test("a restart from the state file picks up the sends where they were", async () => {
    const statePath = join(mkdtempSync(join(tmpdir(), "sbx-sending-")), "state.json");
    const first = await sandbox({ statePath });
    await scheduleProject(first, GOTV_REMINDER, "2026-12-01T15:00:00Z");
    await advance(first, 1000);
    expect(await messages(first)).toHaveLength(20);
    await first.close();
    sb = await sandbox({ statePath });
    await advance(sb, 5000);
    const sent = await messages(sb);
    expect(sent).toHaveLength(38);
    expect(sent.every((m) => m.status !== "sent")).toBe(true);
    expect((await project(sb, GOTV_REMINDER)).status).toBe("completed");
  });
});
