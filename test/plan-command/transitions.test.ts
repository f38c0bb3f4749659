import { describe, expect, test } from "vitest";
import type { ProjectStatus } from "../../src/contract/limits.js";
import { TEST_NOW } from "../helpers/clock.js";
import { fileProject, liveProject, scheduleAt, TEST_BLOCK } from "./fixture-builder.js";
import { actionsOf, planCase } from "./harness.js";

/** design.md's transition table: live status x desired state -> actions, and both exit codes. */
type Row = readonly [ProjectStatus, "tested" | "scheduled" | "paused", string[], number, number];

const NOW = TEST_NOW;
const SCHEDULE = scheduleAt(NOW, 10);
const LIVE_SCHEDULE = {
  scheduled_at: new Date(Date.parse(SCHEDULE.at)).toISOString(),
  scheduled_timezone: SCHEDULE.timezone,
};

const rows: Row[] = [
  ["draft", "tested", ["test:planned"], 0, 2],
  ["draft", "scheduled", ["test:planned", "schedule:deferred"], 0, 2],
  ["draft", "paused", [], 0, 0],
  ["awaiting_test", "tested", [], 0, 0],
  ["awaiting_test", "scheduled", ["schedule:deferred"], 0, 0],
  ["awaiting_test", "paused", [], 0, 0],
  ["ready", "tested", [], 0, 0],
  ["ready", "scheduled", ["schedule:planned"], 0, 2],
  ["ready", "paused", [], 0, 0],
  ["scheduled", "tested", [], 0, 0],
  ["scheduled", "scheduled", [], 0, 0],
  ["scheduled", "paused", ["pause:planned"], 0, 2],
  ["active", "tested", [], 0, 0],
  ["active", "scheduled", [], 0, 0],
  ["active", "paused", ["pause:planned"], 0, 2],
  ["paused", "tested", [], 0, 0],
  ["paused", "scheduled", ["schedule:blocked"], 1, 3],
  ["paused", "paused", [], 0, 0],
  ["completed", "tested", [], 0, 0],
  ["completed", "scheduled", [], 0, 0],
  ["completed", "paused", [], 0, 0],
];

describe("plan: the transition table", () => {
  test.each(rows)(
    "live %s, desired %s -> %j (exit %i, detailed %i)",
    async (status, state, actions, code, detailed) => {
      const scheduled =
        status === "scheduled" || status === "active" || status === "paused" || status === "completed";
      const result = await planCase({
        live: [liveProject(1, NOW, { status, ...(scheduled ? LIVE_SCHEDULE : {}) })],
        files: {
          one: fileProject(1, {
            state,
            test: TEST_BLOCK,
            ...(state === "scheduled" ? { schedule: SCHEDULE } : {}),
          }),
        },
      });
      const project = result.project("one");
      expect(actionsOf(project)).toEqual(actions);
      expect(project.live?.status).toBe(status);
      expect(project.drift).toEqual([]);
      expect([result.code, result.detailed]).toEqual([code, detailed]);
    },
  );

  test("desired draft checks drift only: no actions, exit 0", async () => {
    const result = await planCase({
      live: [liveProject(1, NOW, { status: "ready" })],
      files: { one: fileProject(1) },
    });
    expect(actionsOf(result.project("one"))).toEqual([]);
    expect([result.code, result.detailed]).toEqual([0, 0]);
  });

  test("a scheduled project whose time differs is blocked (schedule-mismatch), exit 1 / 3", async () => {
    const result = await planCase({
      live: [liveProject(1, NOW, { status: "scheduled", ...LIVE_SCHEDULE })],
      files: { one: fileProject(1, { state: "scheduled", test: TEST_BLOCK, schedule: scheduleAt(NOW, 11) }) },
    });
    const project = result.project("one");
    expect(actionsOf(project)).toEqual(["schedule:blocked"]);
    expect(project.actions[0]?.block?.codes).toContain("plan.schedule-mismatch");
    expect([result.code, result.detailed]).toEqual([1, 3]);
  });

  test("draft desired tested without a test block is blocked (test-missing)", async () => {
    const result = await planCase({
      live: [liveProject(1, NOW)],
      files: { one: fileProject(1, { state: "tested" }) },
    });
    const project = result.project("one");
    expect(actionsOf(project)).toEqual(["test:blocked"]);
    expect(project.actions[0]?.block?.codes).toContain("plan.test-missing");
    expect([result.code, result.detailed]).toEqual([1, 3]);
  });
});
