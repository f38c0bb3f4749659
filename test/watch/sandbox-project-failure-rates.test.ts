/**
 * The sandbox's per-project failure knob (`PATCH /_sandbox/simulation` `project_failure_rates`):
 * it raises the failures of one project's messages only, while another project on the same contact
 * list sends with the global `failure_rate`; it is checked like every knob and replaces its map.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, GOTV_FOLLOWUP, GOTV_REMINDER, sandbox } from "../sandbox/helpers.js";
import { advance, messages, scheduleProject } from "../sandbox/sending-fixture.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

describe("project_failure_rates", () => {
  test("fails one project's messages and leaves the other's on the same list alone", async () => {
    sb = await sandbox();
    const patched = await admin(sb, "PATCH", "/simulation", {
      failure_rate: 0,
      project_failure_rates: { [GOTV_FOLLOWUP]: 1 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.project_failure_rates).toEqual({ [GOTV_FOLLOWUP]: 1 });
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:00Z");
    await scheduleProject(sb, GOTV_FOLLOWUP, "2026-12-01T15:00:00Z");
    await advance(sb, 60_000);
    const reminder = await messages(sb, `?project_id=${GOTV_REMINDER}`);
    const followup = await messages(sb, `?project_id=${GOTV_FOLLOWUP}`);
    expect(reminder.length).toBeGreaterThan(0);
    expect(followup.length).toBeGreaterThan(0);
    // The same phones: only the project decides.
    expect(new Set(followup.map((m) => m.to))).toEqual(new Set(reminder.map((m) => m.to)));
    expect(reminder.filter((m) => m.status === "failed")).toEqual([]);
    expect(followup.every((m) => m.status === "failed" && m.error_code !== null)).toBe(true);
  });

  test("is checked like every knob, and a new map replaces the old one", async () => {
    sb = await sandbox();
    expect((await admin(sb, "GET", "/simulation")).body.data.project_failure_rates).toEqual({});
    const bad = await admin(sb, "PATCH", "/simulation", { project_failure_rates: { [GOTV_REMINDER]: 1.5 } });
    expect(bad.status).toBe(400);
    await admin(sb, "PATCH", "/simulation", { project_failure_rates: { [GOTV_REMINDER]: 0.5 } });
    const cleared = await admin(sb, "PATCH", "/simulation", { project_failure_rates: {} });
    expect(cleared.body.data.project_failure_rates).toEqual({});
  });
});
