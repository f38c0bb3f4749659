import { describe, expect, it } from "vitest";
import { idempotencyKey } from "../../src/api/idempotency-key.js";
import type { DesiredState } from "../../src/campaign/model.js";
import type { ProjectStatus } from "../../src/contract/limits.js";
import { assemblePlan } from "../../src/plan/assemble.js";
import type { Action } from "../../src/plan/types.js";
import {
  at,
  campaignOf,
  input,
  liveProject,
  NOW,
  ORG,
  PROJECT_ID,
  SCHEDULE,
  spec,
  TEST_BLOCK,
  UPDATED_AT,
  world,
} from "./builders.js";

/** The live schedule that equals `SCHEDULE` (10:00 at -06:00 is 16:00Z). */
const LIVE_SCHEDULE = { scheduled_at: "2026-11-03T16:00:00.000Z", scheduled_timezone: "America/Chicago" };

function plan(desired: DesiredState, status: ProjectStatus, extra: Parameters<typeof spec>[0] = {}) {
  const project = liveProject({ status, ...LIVE_SCHEDULE, daily_cap_bypass: false });
  const p = assemblePlan(
    input(
      campaignOf(spec({ state: desired, test: TEST_BLOCK, schedule: SCHEDULE, ...extra })),
      world({ projects: [project] }),
    ),
  );
  const only = p.projects[0];
  if (only === undefined) throw new Error("no project plan");
  return { plan: p, project: only };
}

type Row = [
  ProjectStatus,
  DesiredState,
  readonly (readonly [string, Action["status"], ProjectStatus, ProjectStatus, readonly string[]])[],
];

const T = "gotv-reminder.test";
const S = "gotv-reminder.schedule";
const P = "gotv-reminder.pause";

const TABLE: readonly Row[] = [
  ["draft", "draft", []],
  ["awaiting_test", "draft", []],
  ["ready", "draft", []],
  ["scheduled", "draft", []],
  ["active", "draft", []],
  ["paused", "draft", []],
  ["completed", "draft", []],
  ["draft", "tested", [[T, "planned", "draft", "awaiting_test", []]]],
  ["awaiting_test", "tested", []],
  ["ready", "tested", []],
  ["scheduled", "tested", []],
  ["active", "tested", []],
  ["paused", "tested", []],
  ["completed", "tested", []],
  [
    "draft",
    "scheduled",
    [
      [T, "planned", "draft", "awaiting_test", []],
      [S, "deferred", "ready", "scheduled", [T]],
    ],
  ],
  ["awaiting_test", "scheduled", [[S, "deferred", "ready", "scheduled", []]]],
  ["ready", "scheduled", [[S, "planned", "ready", "scheduled", []]]],
  ["scheduled", "scheduled", []],
  ["active", "scheduled", []],
  ["paused", "scheduled", [[S, "blocked", "paused", "scheduled", []]]],
  ["completed", "scheduled", []],
  ["draft", "paused", []],
  ["awaiting_test", "paused", []],
  ["ready", "paused", []],
  ["scheduled", "paused", [[P, "planned", "scheduled", "paused", []]]],
  ["active", "paused", [[P, "planned", "active", "paused", []]]],
  ["paused", "paused", []],
  ["completed", "paused", []],
];

describe("transition table", () => {
  it.each(TABLE)("live %s, desired %s", (status, desired, expected) => {
    const { project } = plan(desired, status);
    expect(project.actions.map((a) => [a.id, a.status, a.before, a.after, a.depends_on])).toEqual(expected);
    for (const action of project.actions) {
      expect(action.project_id).toBe(PROJECT_ID);
      expect(action.request.method).toBe("POST");
      expect(action.request.path).toBe(`/projects/${PROJECT_ID}/${action.kind}`);
      expect(action.block !== undefined).toBe(action.status === "blocked");
      expect(action.waits_for !== undefined).toBe(action.status === "deferred");
      expect(action.request.idempotency_key === null).toBe(action.status === "deferred");
    }
  });

  it("covers every pair of live status and desired state", () => {
    expect(new Set(TABLE.map(([s, d]) => `${s}/${d}`)).size).toBe(28);
  });
});

describe("requests", () => {
  it("test: body lists the test contacts with their merge values, key from updated_at", () => {
    const { project } = plan("tested", "draft", {
      test: {
        contacts: [{ phone: "+15035550199", mergeValues: { first_name: "Ana" } }, { phone: "+15035550198" }],
      },
    });
    const test = project.actions[0];
    const body = {
      test_contacts: [
        { phone: "+15035550199", merge_values: { first_name: "Ana" } },
        { phone: "+15035550198" },
      ],
    };
    expect(test?.request.body).toEqual(body);
    expect(test?.request.idempotency_key).toBe(
      idempotencyKey({ org: ORG, project_id: PROJECT_ID, action: "test", body, based_on: UPDATED_AT }),
    );
  });

  it("schedule: body is the file's time as written, timezone and bypass", () => {
    const { project } = plan("scheduled", "ready", { schedule: { ...SCHEDULE, dailyCapBypass: true } });
    expect(project.actions[0]?.request.body).toEqual({
      scheduled_at: "2026-11-03T10:00:00-06:00",
      scheduled_timezone: "America/Chicago",
      daily_cap_bypass: true,
    });
  });

  it("schedule at: now is the plan's time with the timezone's offset", () => {
    const { project } = plan("scheduled", "ready", { schedule: { ...SCHEDULE, at: "now" } });
    const action = project.actions[0];
    expect(action?.status).toBe("planned");
    expect(action?.request.body).toMatchObject({ scheduled_at: "2026-11-01T06:00:00-06:00" });
    const body = action?.request.body as { scheduled_at: string } | undefined;
    expect(new Date(body?.scheduled_at ?? "").getTime()).toBe(NOW.getTime());
    expect(action?.reason).toContain("at: now, resolved to 2026-11-01T06:00:00-06:00");
  });

  it("a deferred schedule at: now says the time is taken again when it becomes sendable", () => {
    const { project } = plan("scheduled", "awaiting_test", { schedule: { ...SCHEDULE, at: "now" } });
    expect(project.actions[0]?.status).toBe("deferred");
    expect(project.actions[0]?.reason).toContain("apply takes the time again");
  });

  it.each([
    [{ reason: "polling place change" }, { reason: "polling place change" }],
    [{}, {}],
    [undefined, {}],
  ])("pause %j sends %j", (pause, body) => {
    const { project } = plan("paused", "scheduled", { pause });
    expect(project.actions[0]?.request.body).toEqual(body);
  });
});

describe("blocked by the table", () => {
  it.each(["tested", "scheduled"] as const)("draft desired %s without a test block is blocked", (desired) => {
    const { project } = plan(desired, "draft", { test: undefined });
    const test = project.actions.find((a) => a.kind === "test");
    expect(test?.status).toBe("blocked");
    expect(test?.block?.codes).toEqual(["plan.test-missing"]);
    expect(test?.block?.fix).toContain("test:");
    expect(project.diagnostics.find((d) => d.code === "plan.test-missing")?.range).toEqual(at(["state"]));
    if (desired === "scheduled") {
      const schedule = project.actions.find((a) => a.kind === "schedule");
      expect(schedule?.status).toBe("blocked");
      expect(schedule?.block?.reason).toBe("waits for gotv-reminder.test, which is blocked");
      expect(schedule?.waits_for).toBeUndefined();
    }
  });

  it.each(["ready", "awaiting_test", "draft"] as const)("a past schedule is blocked (live %s)", (status) => {
    const { project } = plan("scheduled", status, {
      schedule: { ...SCHEDULE, at: "2026-10-01T10:00:00-05:00" },
    });
    const schedule = project.actions.find((a) => a.kind === "schedule");
    expect(schedule?.status).toBe("blocked");
    expect(schedule?.block?.codes).toEqual(["plan.schedule-in-past"]);
    expect(project.diagnostics.find((d) => d.code === "plan.schedule-in-past")?.range).toEqual(
      at(["schedule", "at"]),
    );
  });

  it("paused desired scheduled: restarting is a dashboard step", () => {
    const { project } = plan("scheduled", "paused");
    expect(project.actions[0]?.block?.codes).toEqual(["plan.restart-not-supported"]);
    expect(project.actions[0]?.block?.fix).toContain("dashboard");
  });
});

describe("a project a guard paused", () => {
  const TRIPPED = "guard: failure rate 7.2% > 5% (36 of 500 sent)";
  const GUARD = { maxFailureRate: 0.05, minSample: 100 };

  function pausedWith(pauseReason: string | null, desired: DesiredState = "scheduled") {
    const project = liveProject({
      status: "paused",
      ...LIVE_SCHEDULE,
      daily_cap_bypass: false,
      pause_reason: pauseReason,
    });
    const p = assemblePlan(
      input(
        campaignOf(spec({ state: desired, test: TEST_BLOCK, schedule: SCHEDULE, guard: GUARD })),
        world({ projects: [project] }),
      ),
    );
    const only = p.projects[0];
    if (only === undefined) throw new Error("no project plan");
    return only;
  }

  it.each([
    [TRIPPED, "plan.guard-paused"],
    ["guard: opt-out rate 3.1% > 2% (9 of 290 delivered)", "plan.guard-paused"],
    ["guard: ", "plan.guard-paused"],
    ["guard:failure", "plan.restart-not-supported"],
    ["Guard: failure rate 7.2% > 5%", "plan.restart-not-supported"],
    [" guard: failure rate 7.2% > 5%", "plan.restart-not-supported"],
    ["manual", "plan.restart-not-supported"],
    ["daily_cap_reached", "plan.restart-not-supported"],
    [null, "plan.restart-not-supported"],
  ])("pause_reason %j, desired scheduled: the schedule is blocked with %s", (reason, code) => {
    const project = pausedWith(reason);
    expect(project.actions.map((a) => [a.id, a.status, a.before, a.after])).toEqual([
      [S, "blocked", "paused", "scheduled"],
    ]);
    expect(project.actions[0]?.block?.codes).toEqual([code]);
    expect(project.diagnostics.map((d) => [d.severity, d.code])).toEqual([["error", code]]);
  });

  it("says a guard paused it, quotes the reason, and says what to do", () => {
    const project = pausedWith(TRIPPED);
    const [d] = project.diagnostics;
    expect(d?.message).toBe(
      'gotv-reminder: a guard paused the project (campaignctl watch, pause reason "guard: failure rate 7.2% > 5% (36 of 500 sent)"), and the file still wants it scheduled; the API cannot restart a paused project',
    );
    expect(d?.range).toEqual(at(["state"]));
    expect(d?.related).toEqual([{ message: "the guard that paused it", range: at(["guard"]) }]);
    const block = project.actions[0]?.block;
    expect(block?.reason).toBe(d?.message);
    expect(block?.fix).toBe(d?.hint);
    for (const step of [
      "fix the cause",
      "restart the project in the dashboard and plan again",
      "`state: paused`",
    ])
      expect(block?.fix).toContain(step);
    expect(project.actions[0]?.reason).toBe(
      "a guard paused the project; restarting a paused project is a dashboard step in this API version",
    );
  });

  it.each(["paused", "tested", "draft"] as const)("desired %s: nothing to do, nothing said", (desired) => {
    const project = pausedWith(TRIPPED, desired);
    expect(project.actions).toEqual([]);
    expect(project.diagnostics).toEqual([]);
  });

  it("the plan shows the guard: rates unset are null, the sample filled in", () => {
    expect(pausedWith(TRIPPED).guard).toEqual({
      max_failure_rate: 0.05,
      max_opt_out_rate: null,
      min_sample: 100,
    });
  });
});

describe("already scheduled", () => {
  it.each([
    ["same instant, other offset", { at: "2026-11-03T11:00:00-05:00" }, true],
    ["at: now matches any time", { at: "now" }, true],
    ["other time", { at: "2026-11-03T11:00:00-06:00" }, false],
    ["other timezone", { timezone: "America/Denver" as const }, false],
    ["other bypass", { dailyCapBypass: true }, false],
  ])("%s", (_, change, matches) => {
    const { project } = plan("scheduled", "scheduled", { schedule: { ...SCHEDULE, ...change } });
    if (matches) expect(project.actions).toEqual([]);
    else {
      expect(project.actions.map((a) => [a.id, a.status, a.before])).toEqual([[S, "blocked", "scheduled"]]);
      expect(project.actions[0]?.block?.codes).toEqual(["plan.schedule-mismatch"]);
      expect(project.actions[0]?.block?.fix).toContain("cannot reschedule");
    }
  });

  it("does not compare daily_cap_bypass when the live project does not show it, and says so", () => {
    const project = liveProject({ status: "scheduled", ...LIVE_SCHEDULE });
    const p = assemblePlan(
      input(
        campaignOf(spec({ state: "scheduled", schedule: { ...SCHEDULE, dailyCapBypass: true } })),
        world({ projects: [project] }),
      ),
    );
    expect(p.projects[0]?.actions).toEqual([]);
    expect(p.projects[0]?.notes.join(" ")).toContain("daily_cap_bypass");
  });
});
