import { describe, expect, it } from "vitest";
import type { Project } from "../../src/contract/resources.js";
import { assemblePlan } from "../../src/plan/assemble.js";
import {
  campaignOf,
  FILE,
  input,
  liveProject,
  MEDIA,
  NOW,
  SCHEDULE,
  type SpecOverrides,
  spec,
  TEST_BLOCK,
  UPDATED_AT,
  world,
} from "./builders.js";

function keyOf(live: Partial<Project> = {}, organizationId?: string, file: SpecOverrides = {}) {
  const p = assemblePlan(
    input(
      campaignOf(spec({ state: "tested", test: TEST_BLOCK, ...file })),
      world({ projects: [liveProject(live)] }),
      organizationId === undefined ? {} : { organizationId },
    ),
  );
  return p.projects[0]?.actions[0]?.request.idempotency_key;
}

describe("idempotency keys", () => {
  it("the same input gives the same key", () => {
    expect(keyOf()).toMatch(/^cc1-[A-Za-z0-9_-]{43}$/);
    expect(keyOf()).toBe(keyOf());
  });

  it.each([
    ["another updated_at", () => keyOf({ updated_at: "2026-10-31T09:00:00.000Z" })],
    [
      "another project organization",
      () => keyOf({ organization_id: "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a02" }),
    ],
    ["another body", () => keyOf({}, undefined, { test: { contacts: [{ phone: "+15035550198" }] } })],
  ])("%s gives another key", (_, other) => {
    expect(other()).not.toBe(keyOf());
  });

  it("the key's organization does not change the key: keys come from the project's own organization", () => {
    expect(keyOf({}, "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a02")).toBe(keyOf());
  });
});

describe("estimate", () => {
  function estimate(file: SpecOverrides, live: Partial<Project> = {}) {
    const p = assemblePlan(input(campaignOf(spec(file)), world({ projects: [liveProject(live)] })));
    return p.projects[0]?.estimate;
  }

  it("recipients and cost are the live project's; segments from the message rendered with fallbacks", () => {
    expect(estimate({}, { total_recipients: 7, estimated_cost_cents: 21 })).toEqual({
      recipients: 7,
      estimated_cost_cents: 21,
      segments: 1,
      encoding: "GSM-7",
    });
  });

  it("counts the opt-out footer when it is on", () => {
    const text = "x".repeat(158);
    expect(estimate({ message: text, optOutFooter: false }, { message_text: text })?.segments).toBe(1);
    expect(
      estimate({ message: text, optOutFooter: true }, { message_text: text, opt_out_footer_enabled: true })
        ?.segments,
    ).toBe(2);
  });

  it("uses the fallback chain: inline fallback, then merge_defaults", () => {
    const message = `{{first_name}} ${"x".repeat(150)}`;
    expect(estimate({ message, mergeDefaults: {} }, { message_text: message })?.segments).toBe(1);
    expect(
      estimate({ message, mergeDefaults: { first_name: "Bartholomew" } }, { message_text: message })
        ?.segments,
    ).toBe(2);
  });

  it("UCS-2 when a character is outside GSM-7", () => {
    expect(estimate({ message: "Vote 🗳️" }, { message_text: "Vote 🗳️" })).toMatchObject({
      encoding: "UCS-2",
      segments: 1,
    });
  });

  it("MMS when media is attached: no segments", () => {
    expect(estimate({ media: [MEDIA] }, { media_ids: [MEDIA] })).toMatchObject({
      encoding: "MMS",
      segments: null,
    });
    expect(estimate({}, { media_ids: [MEDIA] })).toMatchObject({ encoding: "MMS", segments: null });
  });
});

describe("the plan document", () => {
  it("records the inputs, the live basis and the counts", () => {
    const campaign = campaignOf(
      spec({ state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE }),
      spec({ address: "drifted", id: "p-2", state: "tested", test: TEST_BLOCK, name: "other" }),
    );
    const live = world({ projects: [liveProject(), liveProject({ project_id: "p-2" })] });
    const plan = assemblePlan(
      input(campaign, live, { requests: { total: 5, by_endpoint: { "GET /projects/{id}": 2 }, naive: 9 } }),
    );
    expect(plan).toMatchObject({
      format_version: 3,
      tool_version: "0.1.0-test",
      created_at: NOW.toISOString(),
      base_url: "http://127.0.0.1:4010/v1",
      files: [{ path: FILE, sha256: "0".repeat(64), kind: "campaign" }],
      requests: { total: 5, naive: 9 },
      summary: { projects: 2, planned: 1, deferred: 1, blocked: 1, drifted: 1, errors: 1, warnings: 0 },
    });
    expect(plan.projects[0]?.live).toEqual({ status: "draft", updated_at: UPDATED_AT });
    expect(plan.projects.map((p) => p.name)).toEqual(["GOTV reminder", "GOTV reminder"]);
  });

  it("a pause waits for nothing, even on a project ordered `after` another with actions", () => {
    const campaign = campaignOf(
      spec({ state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE }),
      spec({ address: "stop-it", id: "p-2", state: "paused", after: ["gotv-reminder"] }),
    );
    const live = world({ projects: [liveProject(), liveProject({ project_id: "p-2", status: "active" })] });
    const plan = assemblePlan(input(campaign, live));
    expect(plan.projects[1]?.actions.map((a) => [a.id, a.status, a.depends_on])).toEqual([
      ["stop-it.pause", "planned", []],
    ]);
  });

  it("is a pure function of its input", () => {
    const make = () =>
      assemblePlan(
        input(
          campaignOf(spec({ state: "scheduled", test: TEST_BLOCK, schedule: { ...SCHEDULE, at: "now" } })),
          world(),
        ),
      );
    expect(JSON.stringify(make())).toBe(JSON.stringify(make()));
  });

  it("ids of actions are unique across the plan", () => {
    const campaign = campaignOf(
      spec({ state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE }),
      spec({ address: "b", id: "p-2", state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE }),
    );
    const plan = assemblePlan(
      input(campaign, world({ projects: [liveProject(), liveProject({ project_id: "p-2" })] })),
    );
    const ids = plan.projects.flatMap((p) => p.actions.map((a) => a.id));
    expect(ids).toEqual(["gotv-reminder.test", "gotv-reminder.schedule", "b.test", "b.schedule"]);
  });

  it("an organization other than the project's blocks its actions", () => {
    const plan = assemblePlan(
      input(
        campaignOf(spec({ state: "paused", organization: "Riverside Democrats" })),
        world({ projects: [liveProject({ status: "active", organization_id: "o-other" })] }),
      ),
    );
    expect(plan.projects[0]?.diagnostics.map((d) => d.code)).toEqual(["plan.organization-mismatch"]);
    expect(plan.projects[0]?.actions.map((a) => a.status)).toEqual(["blocked"]);
  });

  it("an unresolved reference blocks test and schedule but not a pause, which sends nothing", () => {
    const paused = assemblePlan(
      input(
        campaignOf(spec({ state: "paused", contactLists: ["Nope"] })),
        world({ projects: [liveProject({ status: "active" })] }),
      ),
    );
    expect(paused.projects[0]?.actions.map((a) => [a.id, a.status])).toEqual([
      ["gotv-reminder.pause", "planned"],
    ]);
    expect(paused.projects[0]?.diagnostics.map((d) => d.code)).toContain("plan.reference-missing");

    const scheduled = assemblePlan(
      input(
        campaignOf(
          spec({ state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE, contactLists: ["Nope"] }),
        ),
        world({ projects: [liveProject({ status: "ready" })] }),
      ),
    );
    expect(scheduled.projects[0]?.actions.map((a) => [a.status, a.block?.codes])).toEqual([
      ["blocked", ["plan.reference-missing"]],
    ]);
    expect(scheduled.projects[0]?.actions[0]?.block?.reason).toBe(
      'no contact list is named or has the id "Nope"',
    );
  });
});
