/**
 * The speed of the virtual clock can change while the sandbox runs: `VirtualClock.setTimeScale`
 * keeps the virtual time and changes how fast it runs, and `POST /_sandbox/clock/set` takes
 * `time_scale` with or without `at` (the jump first, then the new speed from the new time).
 */
import { afterEach, describe, expect, test } from "vitest";
import { VirtualClock } from "../../src/sandbox/clock.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, sandbox } from "./helpers.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

describe("VirtualClock.setTimeScale", () => {
  test("keeps the virtual time and changes its speed; 0 freezes it again", async () => {
    let real = 500;
    const clock = new VirtualClock({ startMs: 1_000_000, timeScale: 0, realNow: () => real });
    real += 10_000;
    expect(clock.nowMs()).toBe(1_000_000);
    await clock.setTimeScale(3600);
    expect(clock.scale).toBe(3600);
    expect(clock.nowMs()).toBe(1_000_000);
    real += 1_000;
    expect(clock.nowMs()).toBe(1_000_000 + 3_600_000);
    await clock.setTimeScale(0);
    real += 60_000;
    expect(clock.nowMs()).toBe(1_000_000 + 3_600_000);
    clock.stop();
  });

  test("a speed below 0 or not finite is refused", () => {
    const clock = new VirtualClock({ startMs: 0, timeScale: 0 });
    expect(() => clock.setTimeScale(-1)).toThrow(RangeError);
    expect(() => clock.setTimeScale(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    clock.stop();
  });
});

describe("POST /_sandbox/clock/set with time_scale", () => {
  test("jumps, then runs at the new speed; time_scale 0 freezes it; GET /_sandbox/clock shows the speed", async () => {
    sb = await sandbox();
    expect((await admin(sb, "GET", "/clock")).body.data).toEqual({
      now: "2026-12-01T15:00:00.000Z",
      now_ms: Date.parse("2026-12-01T15:00:00.000Z"),
      time_scale: 0,
    });
    const at = Date.parse("2026-12-07T15:55:00Z");
    const running = await admin(sb, "POST", "/clock/set", { at: "2026-12-07T15:55:00Z", time_scale: 3600 });
    expect(running.status).toBe(200);
    expect(running.body.data.time_scale).toBe(3600);
    expect(running.body.data.now_ms).toBeGreaterThanOrEqual(at);
    const frozen = await admin(sb, "POST", "/clock/set", { time_scale: 0 });
    expect(frozen.body.data.time_scale).toBe(0);
    expect(frozen.body.data.now_ms).toBeGreaterThanOrEqual(running.body.data.now_ms);
    expect((await admin(sb, "GET", "/clock")).body.data.now_ms).toBe(frozen.body.data.now_ms);
  });

  test.each([
    ["nothing to do", {}],
    ["a negative speed", { time_scale: -1 }],
    ["a speed that is not a number", { time_scale: "fast" }],
    ["a speed above a year per second", { time_scale: 31_536_001 }],
  ])("%s is a 400 and leaves the clock alone", async (_, body) => {
    sb = await sandbox();
    const answer = await admin(sb, "POST", "/clock/set", body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("VALIDATION_ERROR");
    expect((await admin(sb, "GET", "/clock")).body.data).toMatchObject({
      now: "2026-12-01T15:00:00.000Z",
      time_scale: 0,
    });
  });
});
