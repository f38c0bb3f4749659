import { describe, expect, it } from "vitest";
import type { ProjectSpec } from "../../src/campaign/model.js";
import type { Project } from "../../src/contract/resources.js";
import { assemblePlan } from "../../src/plan/assemble.js";
import type { Plan } from "../../src/plan/types.js";
import { at, campaignOf, input, liveProject, SCHEDULE, spec, TEST_BLOCK, world } from "./builders.js";

const IDS = {
  a: "9a000000-0000-4000-8000-00000000000a",
  b: "9a000000-0000-4000-8000-00000000000b",
  c: "9a000000-0000-4000-8000-00000000000c",
};

/** a <- b <- c (b after a, c after b), each desired scheduled with a test block. */
function chain(
  live: { a: Partial<Project>; b: Partial<Project>; c: Partial<Project> },
  after = { b: ["a"], c: ["b"] },
) {
  const specs: ProjectSpec[] = [
    spec({ address: "a", id: IDS.a, state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE }),
    spec({
      address: "b",
      id: IDS.b,
      state: "scheduled",
      test: TEST_BLOCK,
      schedule: SCHEDULE,
      after: after.b,
    }),
    spec({
      address: "c",
      id: IDS.c,
      state: "scheduled",
      test: TEST_BLOCK,
      schedule: SCHEDULE,
      after: after.c,
    }),
  ];
  const projects = [
    liveProject({ project_id: IDS.a, ...live.a }),
    liveProject({ project_id: IDS.b, ...live.b }),
    liveProject({ project_id: IDS.c, ...live.c }),
  ];
  return { campaign: campaignOf(...specs), live: world({ projects }) };
}

function actions(plan: Plan) {
  return plan.projects.flatMap((p) => p.actions.map((a) => [a.id, a.status, a.depends_on]));
}

const READY = { status: "ready" } as const;
const DONE = { status: "completed" } as const;

describe("after", () => {
  it("every action of a project depends on every action of the projects it is ordered after", () => {
    const { campaign, live } = chain({ a: READY, b: READY, c: READY });
    expect(actions(assemblePlan(input(campaign, live)))).toEqual([
      ["a.schedule", "planned", []],
      ["b.schedule", "planned", ["a.schedule"]],
      ["c.schedule", "planned", ["b.schedule"]],
    ]);
  });

  it("waiting on a deferred action defers, with a null key", () => {
    const { campaign, live } = chain({ a: { status: "draft" }, b: READY, c: DONE });
    const plan = assemblePlan(input(campaign, live));
    expect(actions(plan)).toEqual([
      ["a.test", "planned", []],
      ["a.schedule", "deferred", ["a.test"]],
      ["b.schedule", "deferred", ["a.test", "a.schedule"]],
    ]);
    const b = plan.projects[1]?.actions[0];
    expect(b?.request.idempotency_key).toBeNull();
    expect(b?.waits_for).toContain("a.schedule");
  });

  it("a project after a blocked one is blocked too, saying what it waits for", () => {
    const { campaign, live } = chain({ a: { ...READY, message_text: "drifted" }, b: READY, c: READY });
    const plan = assemblePlan(input(campaign, live));
    expect(actions(plan).map(([id, status]) => [id, status])).toEqual([
      ["a.schedule", "blocked"],
      ["b.schedule", "blocked"],
      ["c.schedule", "blocked"],
    ]);
    expect(plan.projects[1]?.actions[0]?.block).toMatchObject({
      reason: "waits for a.schedule, which is blocked",
      codes: ["plan.drift"],
    });
    expect(plan.projects[2]?.actions[0]?.block?.reason).toBe("waits for b.schedule, which is blocked");
    expect(plan.projects[1]?.diagnostics).toEqual([]);
  });

  it("a project with no actions passes the dependency through to what it is ordered after", () => {
    const { campaign, live } = chain({ a: READY, b: DONE, c: READY });
    expect(actions(assemblePlan(input(campaign, live)))).toEqual([
      ["a.schedule", "planned", []],
      ["c.schedule", "planned", ["a.schedule"]],
    ]);
  });

  it("with nothing to wait for, a project goes ahead", () => {
    const { campaign, live } = chain({ a: DONE, b: READY, c: DONE });
    expect(actions(assemblePlan(input(campaign, live)))).toEqual([["b.schedule", "planned", []]]);
  });

  it("a cycle (reported by the loader) blocks its actions instead of waiting forever", () => {
    const { campaign, live } = chain({ a: READY, b: READY, c: DONE }, { b: ["a"], c: [] });
    const cyclic = {
      ...campaign,
      projects: campaign.projects.map((p) => (p.address === "a" ? { ...p, after: ["b"] } : p)),
    };
    const plan = assemblePlan(input(cyclic, live));
    expect(plan.projects.flatMap((p) => p.actions.map((a) => [a.id, a.status, a.block?.codes]))).toEqual([
      ["a.schedule", "blocked", ["campaign.after-cycle"]],
      ["b.schedule", "blocked", ["campaign.after-cycle"]],
    ]);
  });
});

describe("--target and --exclude", () => {
  const { campaign, live } = chain({ a: READY, b: READY, c: READY });
  const addresses = (plan: Plan) => plan.projects.map((p) => p.address);

  it.each([
    [["b"], [], ["a", "b"]],
    [["c"], [], ["a", "b", "c"]],
    [["a"], [], ["a"]],
    [[], ["c"], ["a", "b"]],
    [["b", "a"], [], ["a", "b"]],
  ])("targets %j, excludes %j cover %j (campaign order)", (targets, excludes, expected) => {
    const plan = assemblePlan(input(campaign, live, { targets, excludes }));
    expect(addresses(plan)).toEqual(expected);
    expect(plan.diagnostics).toEqual([]);
    expect(plan.targets).toEqual(targets);
    expect(plan.excludes).toEqual(excludes);
  });

  it("excluding a dependency of a covered project is an error that blocks it", () => {
    const plan = assemblePlan(input(campaign, live, { targets: ["b"], excludes: ["a"] }));
    expect(addresses(plan)).toEqual(["b"]);
    expect(plan.diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual([
      ["plan.excluded-dependency", "error", at(["after", 0])],
    ]);
    expect(plan.projects[0]?.actions.map((a) => [a.status, a.block?.codes, a.depends_on])).toEqual([
      ["blocked", ["plan.excluded-dependency"], []],
    ]);
  });

  it.each([
    ["targets", { targets: ["gotv-remnder"] }, "--target"],
    ["excludes", { excludes: ["bb"] }, "--exclude"],
  ])("an unknown address in %s is an error with did-you-mean", (_, flags, flag) => {
    const named = campaignOf(spec({ address: "gotv-reminder" }), spec({ address: "b", id: IDS.b }));
    const plan = assemblePlan(
      input(named, world({ projects: [liveProject(), liveProject({ project_id: IDS.b })] }), flags),
    );
    expect(plan.diagnostics).toHaveLength(1);
    expect(plan.diagnostics[0]?.code).toBe("plan.unknown-address");
    expect(plan.diagnostics[0]?.message).toContain(flag);
    expect(plan.diagnostics[0]?.hint).toContain("did you mean");
    expect(plan.summary.errors).toBe(1);
  });
});

describe("schedule depends on the test of its own project", () => {
  it("and the test on the projects it is after", () => {
    const { campaign, live } = chain({ a: READY, b: { status: "draft" }, c: DONE });
    expect(actions(assemblePlan(input(campaign, live)))).toEqual([
      ["a.schedule", "planned", []],
      ["b.test", "planned", ["a.schedule"]],
      ["b.schedule", "deferred", ["b.test", "a.schedule"]],
    ]);
  });
});
