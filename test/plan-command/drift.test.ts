import { describe, expect, test } from "vitest";
import type { DriftField } from "../../src/plan/types.js";
import type { FixtureProject } from "../../src/sandbox/fixture/types.js";
import { TEST_NOW } from "../helpers/clock.js";
import {
  BRAND2,
  DOMAIN,
  fileProject,
  LIST2,
  liveProject,
  MEDIA,
  MEDIA2,
  NUM_TF,
  NUM2,
  TEN_DLC2,
  TEST_BLOCK,
  TFV,
  TFV2,
} from "./fixture-builder.js";
import { actionsOf, codesOf, planCase } from "./harness.js";

const NOW = TEST_NOW;
const TOLL_FREE_LIVE = {
  channel: "toll-free" as const,
  toll_free_verification_id: TFV,
  phone_number_ids: [NUM_TF],
  campaign_id: undefined,
};
const TOLL_FREE_FILE = {
  channel: "toll-free",
  campaign: undefined,
  toll_free_verification: "Volunteer Line",
  phone_numbers: ["+18445550103"],
};

type Case = readonly [DriftField, Partial<FixtureProject>, Record<string, unknown>];
const cases: Case[] = [
  ["message", { message_text: "Hi {{first_name|friend}}, polls close at 8pm. Reply STOP to opt out" }, {}],
  ["contact_lists", { contact_list_ids: [LIST2] }, {}],
  ["suppression_lists", {}, { suppression_lists: ["Volunteers"] }],
  ["media", { media_ids: [MEDIA] }, { media: [MEDIA2] }],
  ["phone_numbers", { phone_number_ids: [NUM2] }, {}],
  ["brand", { brand_id: BRAND2 }, {}],
  ["campaign", { campaign_id: TEN_DLC2 }, {}],
  ["toll_free_verification", { ...TOLL_FREE_LIVE, toll_free_verification_id: TFV2 }, TOLL_FREE_FILE],
  ["link_tracking", {}, { link_tracking: { destination_url: "https://test.vote/go", domain: DOMAIN } }],
  ["opt_out_footer", { opt_out_footer_enabled: true }, {}],
  ["name", { name: "Renamed in the dashboard" }, {}],
];

describe("plan: drift blocks sending", () => {
  test.each(cases)("%s", async (field, live, file) => {
    const result = await planCase({
      live: [liveProject(1, NOW, live)],
      files: { one: fileProject(1, { state: "tested", test: TEST_BLOCK, ...file }) },
    });
    const project = result.project("one");
    expect(project.drift.map((d) => d.field)).toEqual([field]);
    expect(actionsOf(project)).toEqual(["test:blocked"]);
    expect(project.actions[0]?.block?.codes).toContain("plan.drift");
    expect(codesOf(project)).toContain("plan.drift");
    expect(result.plan.summary.drifted).toBe(1);
    expect([result.code, result.detailed]).toEqual([1, 3]);
  });

  test("drift does not block a pause", async () => {
    const result = await planCase({
      live: [liveProject(1, NOW, { status: "active", name: "Renamed" })],
      files: { one: fileProject(1, { state: "paused" }) },
    });
    expect(actionsOf(result.project("one"))).toEqual(["pause:planned"]);
    expect([result.code, result.detailed]).toEqual([1, 3]);
  });
});
