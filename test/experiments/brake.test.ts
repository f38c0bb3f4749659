/**
 * An experiment's brake (issue 38 point 3): `watch` pauses an arm whose opt-out rate crosses it,
 * once, through the guard path and the one write executor, and leaves the other arm sending. The
 * arms have no guard of their own: the brake is their guard. Against the sandbox on its virtual clock.
 */
import { afterEach, describe, expect, test } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin } from "../sandbox/helpers.js";
import { scheduleProject } from "../sandbox/sending-fixture.js";
import { clearRequests, requestLog, runWatch } from "../watch/harness.js";
import { ARM_A, ARM_B, campaignDir, campaignText, experimentFixture, SEND_AT } from "./world.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

async function world(brake: string): Promise<{ s: SandboxHandle; dir: string }> {
  sb = await startSandbox({ fixture: experimentFixture(400), rateLimits: false, timeScale: 0 });
  const patched = await admin(sb, "PATCH", "/simulation", {
    messages_per_batch: 20,
    batch_interval_ms: 1000,
    failure_rate: 0,
    reply_rate: 0,
    project_reply_rates: { [ARM_A]: 0.1, [ARM_B]: 0.1 },
    opt_out_share: 0,
    // Every reply to B is a STOP: its opt-out rate runs to about 10 %.
    project_opt_out_shares: { [ARM_B]: 1 },
    reply_delay_min_ms: 1000,
    reply_delay_max_ms: 5000,
  });
  expect(patched.status).toBe(200);
  await scheduleProject(sb, ARM_A, SEND_AT);
  await scheduleProject(sb, ARM_B, SEND_AT);
  await clearRequests(sb);
  return { s: sb, dir: campaignDir(campaignText({ brake })) };
}

describe("the brake", () => {
  test("pauses the arm whose opt-out rate crosses it, once, and only that arm", async () => {
    const { s, dir } = await world("    brake: {max_opt_out_rate: 0.05}\n");
    const run = await runWatch(s, dir, [], { flags: { json: true, untilDone: true, interval: 5000 } });
    expect(run.code).toBe(2);
    const pauses = (await requestLog(s)).filter((r) => r.method === "POST");
    expect(pauses.map((r) => r.path)).toEqual([`/projects/${ARM_B}/pause`]);
    const tripped = run.lines.filter((l) => l.type === "tripped");
    expect(tripped.map((l) => [l.project.id, l.guard, l.limit])).toEqual([[ARM_B, "opt_out_rate", 0.05]]);
    const b = (await admin(s, "GET", `/projects/${ARM_B}`)).body.data;
    expect(b.status).toBe("paused");
    expect(b.pause_reason).toMatch(/^guard: opt-out rate \d+\.\d% > 5% \(\d+ of [\d,]+ delivered\)$/);
    const a = (await admin(s, "GET", `/projects/${ARM_A}`)).body.data;
    expect(a.status).toBe("completed");
  }, 120_000);

  test("without a brake the same arms are not paused (watch warns they have no guard)", async () => {
    const { s, dir } = await world("");
    const run = await runWatch(s, dir, [], { flags: { json: true, untilDone: true, interval: 5000 } });
    expect(run.code).toBe(0);
    expect((await requestLog(s)).filter((r) => r.method === "POST")).toEqual([]);
    const notes = run.lines.filter((l) => l.type === "diagnostic").map((l) => l.diagnostic.code);
    expect(notes.filter((c) => c === "watch.no-guard")).toHaveLength(2);
  }, 120_000);

  test("the sandbox's knobs per project are checked like every knob, and a new map replaces the old", async () => {
    sb = await startSandbox({ fixture: experimentFixture(10), rateLimits: false, timeScale: 0 });
    const bad = await admin(sb, "PATCH", "/simulation", { project_reply_rates: { [ARM_A]: 1.5 } });
    expect(bad.status).toBe(400);
    const badShare = await admin(sb, "PATCH", "/simulation", { project_opt_out_shares: { [ARM_A]: -0.1 } });
    expect(badShare.status).toBe(400);
    await admin(sb, "PATCH", "/simulation", { project_reply_rates: { [ARM_A]: 0.5 } });
    const replaced = await admin(sb, "PATCH", "/simulation", { project_reply_rates: { [ARM_B]: 0.2 } });
    expect(replaced.body.data.project_reply_rates).toEqual({ [ARM_B]: 0.2 });
    expect(replaced.body.data.project_opt_out_shares).toEqual({});
  });
});
