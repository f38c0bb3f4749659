import { describe, expect, it } from "vitest";
import type { Project } from "../../src/contract/resources.js";
import type { PlanCode } from "../../src/diagnostics/codes/plan.js";
import { assemblePlan } from "../../src/plan/assemble.js";
import type { LiveState } from "../../src/plan/live.js";
import {
  at,
  campaignOf,
  found,
  input,
  liveProject,
  MEDIA,
  mediaFile,
  PHONE_1,
  PHONE_2,
  PHONE_TF,
  PROJECT_ID,
  phoneNumber,
  SCHEDULE,
  type SpecOverrides,
  spec,
  TCR,
  TEST_BLOCK,
  TFV,
  tenDlcCampaign,
  tollFreeNumber,
  tollFreeVerification,
  type WorldOverrides,
  world,
} from "./builders.js";

const TOLL_FREE: Partial<Project> = {
  channel: "toll-free",
  campaign_id: "",
  toll_free_verification_id: TFV,
  phone_number_ids: [PHONE_TF],
};

function planOf(live: Partial<Project>, worldOverrides: WorldOverrides = {}, file: SpecOverrides = {}) {
  const state: LiveState = world({
    projects: [liveProject({ status: "ready", ...live })],
    ...worldOverrides,
  });
  const p = assemblePlan(
    input(campaignOf(spec({ state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE, ...file })), state),
  );
  const project = p.projects[0];
  if (project === undefined) throw new Error("no project plan");
  return project;
}

/** [name, live project, world, file, code, where] */
const FAILURES: readonly [
  string,
  Partial<Project>,
  WorldOverrides,
  SpecOverrides,
  PlanCode,
  readonly (string | number)[],
][] = [
  [
    "media not ready",
    { media_ids: [MEDIA] },
    { media: new Map([[MEDIA, found(mediaFile({ status: "processing" }))]]) },
    { media: ["rally-flyer.png"] },
    "plan.media-not-ready",
    ["media", 0],
  ],
  [
    "media not found",
    { media_ids: ["f-gone"] },
    { media: new Map([["f-gone", { kind: "not-found" }]]) },
    {},
    "plan.media-not-ready",
    ["media"],
  ],
  [
    "10DLC campaign not provisioned",
    {},
    { tenDlcCampaigns: [tenDlcCampaign({ campaign_status: "PENDING" })] },
    {},
    "plan.ten-dlc-campaign-not-provisioned",
    ["campaign"],
  ],
  [
    "10DLC campaign not visible",
    {},
    { tenDlcCampaigns: [] },
    {},
    "plan.ten-dlc-campaign-not-provisioned",
    ["campaign"],
  ],
  [
    "toll-free verification not verified",
    TOLL_FREE,
    { tollFreeVerifications: new Map([[TFV, found(tollFreeVerification({ status: "Rejected" }))]]) },
    {},
    "plan.toll-free-not-verified",
    ["toll_free_verification"],
  ],
  [
    "toll-free verification unreadable",
    TOLL_FREE,
    { tollFreeVerifications: new Map([[TFV, { kind: "forbidden", message: "ORG_ACCESS_DENIED" }]]) },
    {},
    "plan.toll-free-not-verified",
    ["toll_free_verification"],
  ],
  [
    "phone number not active",
    {},
    { phoneNumbers: [phoneNumber(PHONE_1, "+15035550101", { status: "released" })] },
    { phoneNumbers: [PHONE_1] },
    "plan.phone-number-not-active",
    ["phone_numbers", 0],
  ],
  [
    "phone number not visible",
    { phone_number_ids: ["a-gone"] },
    {},
    {},
    "plan.phone-number-not-active",
    ["phone_numbers"],
  ],
  [
    "phone number of another 10DLC campaign",
    {},
    { phoneNumbers: [phoneNumber(PHONE_1, "+15035550101", { campaign_id: "c-other" })] },
    {},
    "plan.phone-number-not-registered",
    ["phone_numbers", 0],
  ],
  [
    "10DLC number on a toll-free project",
    { ...TOLL_FREE, phone_number_ids: [PHONE_1] },
    {},
    {},
    "plan.phone-number-not-registered",
    ["phone_numbers", 0],
  ],
  [
    "contact list not visible",
    { contact_list_ids: ["e-hidden"] },
    {},
    {},
    "plan.contact-list-not-visible",
    ["contact_lists"],
  ],
  [
    "suppression list not visible",
    { suppression_list_ids: ["e-hidden"] },
    {},
    {},
    "plan.contact-list-not-visible",
    ["suppression_lists"],
  ],
];

describe("preconditions of sending", () => {
  it.each(FAILURES)("%s", (_, live, worldOverrides, file, code, path) => {
    const project = planOf(live, worldOverrides, file);
    const diagnostic = project.diagnostics.find((d) => d.code === code);
    expect(diagnostic?.severity).toBe("error");
    expect(diagnostic?.range).toEqual(at(path));
    // Live content the file does not describe is also drift (the describe rule), which blocks too.
    expect(project.actions.map((a) => [a.kind, a.status, a.block?.codes])).toEqual([
      ["schedule", "blocked", expect.arrayContaining([code])],
    ]);
  });

  it("the default world meets every precondition", () => {
    expect(planOf({}).actions.map((a) => a.status)).toEqual(["planned"]);
    expect(planOf(TOLL_FREE, {}, { phoneNumbers: [PHONE_TF] }).actions.map((a) => a.status)).toEqual([
      "planned",
    ]);
  });

  it("a shared number of the right 10DLC campaign counts", () => {
    const shared = phoneNumber(PHONE_2, "+15035550102", {
      shared: true,
      nickname: "Parent line",
      brand_id: null,
      brand_name: null,
      campaign_name: null,
      org_name: "Riverside Democrats",
    });
    const project = planOf(
      { phone_number_ids: [PHONE_2] },
      { phoneNumbers: [shared, tollFreeNumber] },
      {
        phoneNumbers: ["Parent line"],
      },
    );
    expect(project.diagnostics).toEqual([]);
    expect(project.actions[0]?.status).toBe("planned");
  });

  it("no recipients blocks the schedule, not the test", () => {
    const project = planOf({ status: "draft", total_recipients: 0 });
    expect(project.actions.map((a) => [a.kind, a.status])).toEqual([
      ["test", "planned"],
      ["schedule", "blocked"],
    ]);
    expect(project.actions[1]?.block?.codes).toEqual(expect.arrayContaining(["plan.no-recipients"]));
    expect(project.diagnostics.find((d) => d.code === "plan.no-recipients")?.range).toEqual(
      at(["contact_lists"]),
    );
  });

  it("a failed precondition blocks the test too", () => {
    const project = planOf(
      { status: "draft" },
      { tenDlcCampaigns: [tenDlcCampaign({ campaign_status: "PENDING" })] },
    );
    expect(project.actions.map((a) => [a.kind, a.status])).toEqual([
      ["test", "blocked"],
      ["schedule", "blocked"],
    ]);
  });

  it("preconditions never block a pause, and are not reported for it", () => {
    const state = world({
      projects: [liveProject({ status: "active", total_recipients: 0 })],
      tenDlcCampaigns: [tenDlcCampaign({ campaign_status: "PENDING", id: TCR })],
    });
    const p = assemblePlan(input(campaignOf(spec({ state: "paused" })), state));
    expect(p.projects[0]?.actions.map((a) => [a.kind, a.status])).toEqual([["pause", "planned"]]);
    expect(p.projects[0]?.diagnostics).toEqual([]);
  });

  it("preconditions are not checked when nothing is sent (desired draft)", () => {
    const state = world({ tenDlcCampaigns: [] });
    const p = assemblePlan(input(campaignOf(spec({ state: "draft" })), state));
    expect(p.projects[0]?.diagnostics).toEqual([]);
  });
});

describe("project reads", () => {
  it.each([
    [{ kind: "not-found" } as const, "plan.project-not-found", "copy the live project's id"],
    [{ kind: "forbidden", message: "ORG_ACCESS_DENIED" } as const, "plan.project-forbidden", "key"],
    [
      { kind: "error", code: "api.server-error", message: "500" } as const,
      "plan.project-unreadable",
      "plan again",
    ],
  ])("%j gives %s and no actions", (read, code, hint) => {
    const state = world({ projects: [], reads: new Map([[PROJECT_ID, read]]) });
    const p = assemblePlan(
      input(campaignOf(spec({ state: "scheduled", test: TEST_BLOCK, schedule: SCHEDULE })), state),
    );
    const project = p.projects[0];
    expect(project?.live).toBeNull();
    expect(project?.actions).toEqual([]);
    expect(project?.estimate).toBeNull();
    expect(project?.diagnostics.map((d) => [d.code, d.range])).toEqual([[code, at(["id"])]]);
    expect(project?.diagnostics[0]?.hint).toContain(hint);
    expect(p.summary.errors).toBe(1);
  });
});
