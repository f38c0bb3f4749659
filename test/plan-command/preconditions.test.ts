import { describe, expect, test } from "vitest";
import type { FixtureProject } from "../../src/sandbox/fixture/types.js";
import { TEST_NOW } from "../helpers/clock.js";
import type { WorldOptions } from "./fixture-builder.js";
import {
  fileProject,
  LIST,
  liveProject,
  MEDIA,
  NUM_TF,
  NUM2,
  OTHER_LIST,
  scheduleAt,
  TEST_BLOCK,
  TFV,
} from "./fixture-builder.js";
import { actionsOf, codesOf, planCase } from "./harness.js";

const NOW = TEST_NOW;

type Case = readonly [string, Omit<WorldOptions, "now">, Partial<FixtureProject>, Record<string, unknown>];
const cases: Case[] = [
  ["plan.media-not-ready", { mediaStatus: "processing" }, { media_ids: [MEDIA] }, { media: [MEDIA] }],
  ["plan.ten-dlc-campaign-not-provisioned", { tenDlcStatus: "PENDING_REVIEW" }, {}, {}],
  [
    "plan.toll-free-not-verified",
    { tollFreeStatus: "Pending" },
    {
      channel: "toll-free",
      toll_free_verification_id: TFV,
      phone_number_ids: [NUM_TF],
      campaign_id: undefined,
    },
    {
      channel: "toll-free",
      campaign: undefined,
      toll_free_verification: "Volunteer Line",
      phone_numbers: ["+18445550103"],
    },
  ],
  ["plan.phone-number-not-active", { numberStatus: "inactive" }, {}, {}],
  [
    "plan.phone-number-not-registered",
    { number2Unregistered: true },
    { phone_number_ids: [NUM2] },
    { phone_numbers: ["+15035550102"] },
  ],
  [
    "plan.contact-list-not-visible",
    {},
    { contact_list_ids: [LIST, OTHER_LIST] },
    { contact_lists: undefined },
  ],
];

describe("plan: preconditions block a test send", () => {
  test.each(cases)("%s", async (code, world, live, file) => {
    const result = await planCase({
      world,
      live: [liveProject(1, NOW, live)],
      files: { one: fileProject(1, { state: "tested", test: TEST_BLOCK, ...file }) },
    });
    const project = result.project("one");
    expect(project.drift).toEqual([]);
    expect(actionsOf(project)).toEqual(["test:blocked"]);
    expect(project.actions[0]?.block?.codes).toContain(code);
    expect(codesOf(project)).toContain(code);
    expect([result.code, result.detailed]).toEqual([1, 3]);
  });

  test("plan.no-recipients blocks a schedule", async () => {
    const result = await planCase({
      live: [liveProject(1, NOW, { status: "ready", total_recipients: 0 })],
      files: { one: fileProject(1, { state: "scheduled", test: TEST_BLOCK, schedule: scheduleAt(NOW, 5) }) },
    });
    const project = result.project("one");
    expect(actionsOf(project)).toEqual(["schedule:blocked"]);
    expect(project.actions[0]?.block?.codes).toContain("plan.no-recipients");
    expect([result.code, result.detailed]).toEqual([1, 3]);
  });
});
