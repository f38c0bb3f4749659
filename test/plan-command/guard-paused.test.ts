/**
 * A pause made by a guard is visible to `plan` (issue 18 item 3): the file still says `scheduled`,
 * the live project is paused with a `pause_reason` that starts with `guard: ` (what `campaignctl
 * watch` sends), so the plan blocks the schedule with `plan.guard-paused`, quotes the reason and
 * says what to do; any other pause stays `plan.restart-not-supported`. Also: the plan shows each
 * project's guard (JSON and terminal). Against the sandbox over real HTTP, at the fixed test instant.
 */
import { describe, expect, test } from "vitest";
import { GUARD_PAUSE_REASON_PREFIX } from "../../src/contract/guard-reason.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { TEST_NOW } from "../helpers/clock.js";
import { fileProject, KEY, liveProject, pid, scheduleAt, TEST_BLOCK } from "./fixture-builder.js";
import { actionsOf, codesOf, planCase, planIn, withCase } from "./harness.js";

const NOW = TEST_NOW;
const SCHEDULE = scheduleAt(NOW, 10);
const LIVE_SCHEDULE = {
  scheduled_at: new Date(Date.parse(SCHEDULE.at)).toISOString(),
  scheduled_timezone: SCHEDULE.timezone,
};
const TRIPPED = `${GUARD_PAUSE_REASON_PREFIX}failure rate 7.2% > 5% (36 of 500 sent)`;
const GUARD = { max_failure_rate: 0.05, max_opt_out_rate: 0.02, min_sample: 200 };

const scheduledFile = (n: number, extra: Record<string, unknown> = {}) =>
  fileProject(n, { state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE, guard: GUARD, ...extra });

describe("plan: a project a guard paused", () => {
  test.each([
    [TRIPPED, "plan.guard-paused"],
    ["manual", "plan.restart-not-supported"],
    ["daily_cap_reached", "plan.restart-not-supported"],
  ])("live paused with reason %j, file scheduled: %s, exit 1 / 3", async (reason, code) => {
    const result = await planCase({
      live: [liveProject(1, NOW, { status: "paused", pause_reason: reason, ...LIVE_SCHEDULE })],
      files: { one: scheduledFile(1) },
    });
    const project = result.project("one");
    expect(actionsOf(project)).toEqual(["schedule:blocked"]);
    expect(project.actions[0]?.block?.codes).toEqual([code]);
    expect(codesOf(project)).toEqual([code]);
    expect([result.code, result.detailed]).toEqual([1, 3]);
  });

  test("a pause sent through the API with the guard's reason: the plan quotes it and says what to do", async () => {
    await withCase(
      {
        live: [liveProject(1, NOW, { status: "active", ...LIVE_SCHEDULE })],
        files: { one: scheduledFile(1) },
      },
      async (sandbox, dir) => {
        // What `campaignctl watch` does when the guard trips (the pause route stores the reason).
        await pauseWithReason(sandbox, pid(1), TRIPPED);

        const json = await planIn(sandbox, dir, ["--json"]);
        expect(json.code).toBe(1);
        const project = JSON.parse(json.stdout).projects[0];
        expect(project.live.status).toBe("paused");
        expect(project.actions[0].block.codes).toEqual(["plan.guard-paused"]);
        const [d] = project.diagnostics;
        expect(d.code).toBe("plan.guard-paused");
        expect(d.message).toContain(`pause reason "${TRIPPED}"`);
        expect(d.related[0].message).toBe("the guard that paused it");

        const human = await planIn(sandbox, dir, []);
        expect(human.code).toBe(1);
        const text = human.stdout.replace(/\s+/g, " ");
        expect(text).toContain(`a guard paused the project (campaignctl watch, pause reason "${TRIPPED}")`);
        expect(text).toContain("restart the project in the dashboard and plan again");
        expect(text).toContain("set `state: paused` in the file");
        expect(text).not.toContain("plan.restart-not-supported");
      },
    );
  });

  test("the file accepts the pause (state: paused): nothing to do, exit 0", async () => {
    const result = await planCase({
      live: [liveProject(1, NOW, { status: "paused", pause_reason: TRIPPED, ...LIVE_SCHEDULE })],
      files: { one: scheduledFile(1, { state: "paused" }) },
    });
    expect(actionsOf(result.project("one"))).toEqual([]);
    expect(result.project("one").diagnostics).toEqual([]);
    expect([result.code, result.detailed]).toEqual([0, 0]);
  });
});

describe("plan: guards shown", () => {
  test("the plan document and the terminal show each project's guard, null without one", async () => {
    await withCase(
      {
        live: [
          liveProject(1, NOW, { status: "ready" }),
          liveProject(2, NOW, { status: "ready" }),
          liveProject(3, NOW, { status: "ready" }),
        ],
        files: {
          one: scheduledFile(1),
          two: scheduledFile(2, { guard: { max_opt_out_rate: 0.015 } }),
          three: scheduledFile(3, { guard: undefined }),
        },
      },
      async (sandbox, dir) => {
        const json = await planIn(sandbox, dir, ["--json"]);
        const guards = JSON.parse(json.stdout).projects.map((p: { guard: unknown }) => p.guard);
        expect(guards).toEqual([
          { max_failure_rate: 0.05, max_opt_out_rate: 0.02, min_sample: 200 },
          { max_failure_rate: null, max_opt_out_rate: 0.015, min_sample: 100 },
          null,
        ]);
        const human = await planIn(sandbox, dir, []);
        // One `guard:` line per project that has one (wrapped at the terminal width).
        const text = human.stdout.replace(/\s+/g, " ");
        expect(text.match(/ guard: [^:]*sent/g)).toEqual([
          " guard: campaignctl watch pauses the send when its failure rate is over 5% or its opt-out rate is over 2%, judged once 200 messages are sent",
          " guard: campaignctl watch pauses the send when its opt-out rate is over 1.5%, judged once 100 messages are sent",
        ]);
      },
    );
  });
});

async function pauseWithReason(sandbox: SandboxHandle, id: string, reason: string): Promise<void> {
  const res = await fetch(`${sandbox.baseUrl}/projects/${id}/pause`, {
    method: "POST",
    headers: {
      "x-api-key": KEY,
      "idempotency-key": "test-guard-pause-0001",
      "content-type": "application/json",
    },
    body: JSON.stringify({ reason }),
  });
  expect(res.status).toBe(200);
}
