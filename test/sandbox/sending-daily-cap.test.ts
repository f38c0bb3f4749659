import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, GOTV_FOLLOWUP, GOTV_REMINDER, sandbox } from "./helpers.js";
import { advance, fixtureWith, messages, project, scheduleProject } from "./sending-fixture.js";

// The brand is capped at 15 messages per Pacific day; GOTV Reminder has 38 recipients.
// 2026-12-01T16:00Z is 08:00 in Los Angeles (PST, UTC-8); the next Pacific day starts at 08:00Z.
const capped = () =>
  fixtureWith((f) => {
    for (const b of f.brands ?? []) b.daily_cap = 15;
  });

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs).toEqual([]);
  await sb?.close();
  sb = undefined;
});

describe("brand daily carrier cap", () => {
  test("without bypass: pauses at the cap, stays paused, and continues the next Pacific day after resume", async () => {
    sb = await sandbox({ fixture: capped() });
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T16:00:00Z");
    await advance(sb, 60 * 60_000 + 1000);
    expect(await messages(sb)).toHaveLength(15);
    const paused = await project(sb, GOTV_REMINDER);
    expect(paused).toMatchObject({ status: "paused", pause_reason: "daily_cap_reached" });
    expect(paused.updated_at).toBe("2026-12-01T16:00:01.000Z");

    // Resuming the same Pacific day pauses again at once; time alone does not resume it.
    await admin(sb, "POST", `/projects/${GOTV_REMINDER}/resume`);
    await advance(sb, 0);
    expect(await messages(sb)).toHaveLength(15);
    expect((await project(sb, GOTV_REMINDER)).pause_reason).toBe("daily_cap_reached");
    await admin(sb, "POST", "/clock/set", { at: "2026-12-02T07:59:59Z" });
    await advance(sb, 2000);
    expect((await project(sb, GOTV_REMINDER)).status).toBe("paused");

    await admin(sb, "POST", `/projects/${GOTV_REMINDER}/resume`);
    await advance(sb, 5000);
    const day2 = await messages(sb);
    expect(day2).toHaveLength(30);
    expect(day2.slice(15).every((m) => m.sent_at.startsWith("2026-12-02T08:00:0"))).toBe(true);
    expect((await project(sb, GOTV_REMINDER)).pause_reason).toBe("daily_cap_reached");

    await admin(sb, "POST", "/clock/set", { at: "2026-12-03T09:00:00Z" });
    await admin(sb, "POST", `/projects/${GOTV_REMINDER}/resume`);
    await advance(sb, 5000);
    expect(await messages(sb)).toHaveLength(38);
    expect(new Set((await messages(sb)).map((m) => m.to)).size).toBe(38);
    expect((await project(sb, GOTV_REMINDER)).status).toBe("completed");
  });

  test("the cap counts every project of the brand", async () => {
    sb = await sandbox({ fixture: capped() });
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T16:00:00Z", true);
    await advance(sb, 60 * 60_000 + 5000);
    await scheduleProject(sb, GOTV_FOLLOWUP, "2026-12-01T16:00:00Z");
    await advance(sb, 0);
    expect(await messages(sb, `?project_id=${GOTV_FOLLOWUP}`)).toEqual([]);
    expect(await project(sb, GOTV_FOLLOWUP)).toMatchObject({
      status: "paused",
      pause_reason: "daily_cap_reached",
    });
  });

  test("with bypass: runs past the cap; some over-cap messages fail and all are billed", async () => {
    sb = await sandbox({ fixture: capped() });
    await admin(sb, "PATCH", "/simulation", { failure_rate: 0 });
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T16:00:00Z", true);
    await advance(sb, 60 * 60_000 + 10_000);
    const sent = await messages(sb);
    expect(sent).toHaveLength(38);
    expect(sent.filter((m) => m.over_cap)).toHaveLength(23);
    const failed = sent.filter((m) => m.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((m) => m.over_cap && m.error_code === "30023")).toBe(true);
    const p = await project(sb, GOTV_REMINDER);
    expect(p.status).toBe("completed");
    expect(p.counters.actual_cost_e4).toBe(sent.reduce((a, m) => a + m.cost_e4, 0));
    expect(p.counters.messages_failed).toBe(failed.length);
  });
});
