/**
 * What the plan tells a reviewer about each send: the audience by name, the schedule in the
 * recipients' zone and in UTC, whether the project sends to its lists, and the totals.
 */
import { describe, expect, it } from "vitest";
import type { ProjectSpec } from "../../src/campaign/model.js";
import type { Project } from "../../src/contract/resources.js";
import { assemblePlan } from "../../src/plan/assemble.js";
import { sendsToLists } from "../../src/plan/audience.js";
import { totalSends } from "../../src/plan/totals.js";
import type { Plan } from "../../src/plan/types.js";
import { fullPlan } from "../report/fixtures.js";
import {
  campaignOf,
  input,
  LIST_DNT,
  LIST_VOL,
  LIST_WARD,
  liveProject,
  ORG,
  organization,
  SCHEDULE,
  type SpecOverrides,
  spec,
  TEST_BLOCK,
  world,
} from "./builders.js";

const CHILD = "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a02";
const HIDDEN = "e1000000-0000-4000-8000-0000000000ee";

function planOf(file: SpecOverrides, live: Partial<Project> = {}): Plan {
  return assemblePlan(input(campaignOf(spec(file)), world({ projects: [liveProject(live)] })));
}

describe("audience", () => {
  it("names the live project's organization, contact lists and suppression lists; an unseen list has no name", () => {
    const plan = planOf(
      { contactLists: ["Ward 3 Likely Voters", LIST_VOL], suppressionLists: ["Do Not Text"] },
      { contact_list_ids: [LIST_WARD, LIST_VOL], suppression_list_ids: [LIST_DNT, HIDDEN] },
    );
    expect(plan.projects[0]?.audience).toEqual({
      organization: { id: ORG, name: "Riverside Democrats" },
      contact_lists: [
        { id: LIST_WARD, name: "Ward 3 Likely Voters" },
        { id: LIST_VOL, name: "Volunteer Prospects" },
      ],
      suppression_lists: [
        { id: LIST_DNT, name: "Do Not Text" },
        { id: HIDDEN, name: null },
      ],
    });
  });

  it("is what the live project sends to, even when the file names other lists (that is drift)", () => {
    const plan = planOf({ contactLists: ["Volunteer Prospects"] }, { contact_list_ids: [LIST_WARD] });
    const project = plan.projects[0];
    expect(project?.drift.map((d) => d.field)).toContain("contact_lists");
    expect(project?.audience?.contact_lists).toEqual([{ id: LIST_WARD, name: "Ward 3 Likely Voters" }]);
  });

  it("is null for a project that could not be read", () => {
    const plan = assemblePlan(
      input(
        campaignOf(spec({ state: "scheduled", schedule: SCHEDULE })),
        world({ projects: [], reads: new Map([[spec().id, { kind: "not-found" }]]) }),
      ),
    );
    expect(plan.projects[0]).toMatchObject({ live: null, audience: null, sends: true, estimate: null });
  });
});

describe("schedule", () => {
  const cases: {
    name: string;
    file: SpecOverrides;
    live?: Partial<Project>;
    expected: unknown;
  }[] = [
    {
      name: "the file's, desired scheduled: local time in its zone and UTC",
      file: { state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE },
      expected: {
        source: "file",
        at: "2026-11-03T10:00:00-06:00",
        timezone: "America/Chicago",
        local: "2026-11-03T10:00:00-06:00",
        utc: "2026-11-03T16:00:00Z",
      },
    },
    {
      name: "written with another offset: the local time is in the schedule's zone",
      file: {
        state: "scheduled",
        test: TEST_BLOCK,
        schedule: { ...SCHEDULE, at: "2026-11-04T01:30:00Z", timezone: "America/Los_Angeles" },
      },
      expected: {
        source: "file",
        at: "2026-11-04T01:30:00Z",
        timezone: "America/Los_Angeles",
        local: "2026-11-03T17:30:00-08:00",
        utc: "2026-11-04T01:30:00Z",
      },
    },
    {
      name: "at: now, not yet scheduled: no time until apply schedules it",
      file: { state: "scheduled", test: TEST_BLOCK, schedule: { ...SCHEDULE, at: "now" } },
      expected: { source: "file", at: "now", timezone: "America/Chicago", local: null, utc: null },
    },
    {
      name: "at: now on a project already scheduled: the live time",
      file: { state: "scheduled", schedule: { ...SCHEDULE, at: "now" } },
      live: {
        status: "scheduled",
        scheduled_at: "2026-11-02T15:00:00.000Z",
        scheduled_timezone: "America/Chicago",
      },
      expected: {
        source: "live",
        at: "2026-11-02T15:00:00.000Z",
        timezone: "America/Chicago",
        local: "2026-11-02T09:00:00-06:00",
        utc: "2026-11-02T15:00:00Z",
      },
    },
    {
      name: "desired paused: the live schedule it had",
      file: { state: "paused" },
      live: { status: "scheduled", scheduled_at: "2026-11-02T15:00:00Z", scheduled_timezone: null },
      expected: {
        source: "live",
        at: "2026-11-02T15:00:00Z",
        timezone: null,
        local: null,
        utc: "2026-11-02T15:00:00Z",
      },
    },
    { name: "no schedule anywhere", file: { state: "tested", test: TEST_BLOCK }, expected: null },
  ];
  it.each(cases)("$name", ({ file, live, expected }) => {
    expect(planOf(file, live).projects[0]?.schedule).toEqual(expected);
  });

  it("one instant read in two zones, each twice: each zone's own local time (answers kept by zone and instant)", () => {
    const at = "2026-11-04T01:30:00Z";
    const local = (timezone: "America/Los_Angeles" | "America/New_York") =>
      planOf({ state: "scheduled", test: TEST_BLOCK, schedule: { ...SCHEDULE, at, timezone } }).projects[0]
        ?.schedule?.local;
    for (let i = 0; i < 2; i++) {
      expect(local("America/Los_Angeles")).toBe("2026-11-03T17:30:00-08:00");
      expect(local("America/New_York")).toBe("2026-11-03T20:30:00-05:00");
    }
  });
});

describe("sendsToLists", () => {
  const table: [ProjectSpec["state"], Project["status"] | null, boolean][] = [
    ["scheduled", "draft", true],
    ["scheduled", "ready", true],
    ["scheduled", "active", true],
    ["scheduled", "paused", true],
    ["scheduled", "completed", false],
    ["scheduled", null, true],
    ["tested", "draft", false],
    ["tested", "scheduled", true],
    ["draft", "active", true],
    ["draft", "draft", false],
    ["paused", "scheduled", false],
    ["paused", "active", false],
    ["tested", null, false],
  ];
  it.each(table)("desired %s, live %s: %s", (desired, status, sends) => {
    const live = status === null ? null : { status, updated_at: "2026-10-30T09:00:00.000Z" };
    expect(sendsToLists(desired, live)).toBe(sends);
  });
});

describe("totals", () => {
  it("add up the sending projects, overall and per organization, in the order projects name them", () => {
    const plan = assemblePlan(
      input(
        campaignOf(
          spec({ address: "a", id: "p-a", state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE }),
          spec({ address: "b", id: "p-b", state: "tested", test: TEST_BLOCK }),
          spec({ address: "c", id: "p-c", state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE }),
          spec({ address: "d", id: "p-d", state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE }),
        ),
        world({
          organizations: [
            organization,
            { ...organization, id: CHILD, display_name: "Riverside Young Democrats" },
          ],
          projects: [
            liveProject({ project_id: "p-a", total_recipients: 100, estimated_cost_cents: 0.1 }),
            liveProject({ project_id: "p-b", total_recipients: 5, estimated_cost_cents: 7 }),
            liveProject({
              project_id: "p-c",
              organization_id: CHILD,
              total_recipients: 10,
              estimated_cost_cents: 0.2,
              message_text: `${"x".repeat(200)} Reply STOP to opt out`,
            }),
          ],
          reads: new Map([["p-d", { kind: "not-found" }]]),
        }),
        { allowCrossOrganizationKey: true },
      ),
    );
    expect(plan.totals.overall).toEqual({
      projects: 3,
      not_estimated: 1,
      recipients: 110,
      sms_segments: 100 + 10,
      mms_messages: 0,
      estimated_cost_cents: 0.3,
    });
    expect(plan.totals.by_organization.map((t) => [t.organization?.name ?? null, t.projects])).toEqual([
      ["Riverside Democrats", 1],
      ["Riverside Young Democrats", 1],
      [null, 1],
    ]);
  });

  it("count MMS recipients as messages, not segments", () => {
    const plan = planOf(
      { state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE, media: ["rally-flyer.png"] },
      { media_ids: ["f1000000-0000-4000-8000-000000000001"], total_recipients: 25 },
    );
    expect(plan.totals.overall).toMatchObject({ recipients: 25, sms_segments: 0, mms_messages: 25 });
  });

  it("agree with the report fixture's hand-written totals", () => {
    expect(totalSends(fullPlan().projects)).toEqual(fullPlan().totals);
  });
});
