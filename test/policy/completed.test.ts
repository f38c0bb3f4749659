/**
 * A project whose live state is completed (as read in this run) sends nothing more, whatever its
 * file asks: no rule about sending fires for it, and the forecast leaves it out. The same file with a
 * live project that will still send is judged by every one of those rules.
 */
import { describe, expect, it } from "vitest";
import type { Project } from "../../src/contract/resources.js";
import { DEFAULT_THROUGHPUT } from "../../src/forecast/capacity.js";
import { type JudgeInput, judge } from "../../src/plan/judge.js";
import { NO_LIVE_SENDS } from "../../src/plan/live-sends.js";
import { NO_POLICY_CAPACITY, type Policy } from "../../src/policy/model.js";
import { policyViolations } from "../../src/policy/rules.js";
import { campaignOf, LIST_WARD, liveProject, ORG, spec, world } from "../plan/builders.js";

const NOW = new Date("2026-11-01T12:00:00.000Z");

/** Breaks every rule about sending below: one test phone, no opt-out wording, at 22:00, no guard. */
const late = spec({
  state: "scheduled",
  message: "Vote Tuesday at the Ward 3 hall",
  contactLists: ["Ward 3 Likely Voters"],
  test: { contacts: [{ phone: "+15035550150" }] },
  schedule: { at: "2026-10-20T22:00:00-05:00", timezone: "America/Chicago", dailyCapBypass: true },
});

const policy: Policy = {
  file: "campaignctl.policy.yaml",
  files: ["campaignctl.policy.yaml"],
  rules: {
    daily_cap_bypass: "forbid",
    min_test_contacts: 2,
    max_estimated_cost_usd: 1,
    send_window: { from: "09:00", to: "20:00" },
    require_opt_out_language: true,
    require_guards: true,
    require_suppression_lists: { all_organizations: ["Do Not Text"] },
    require_help: { for: "sends" },
  },
  ranges: {},
  capacity: NO_POLICY_CAPACITY,
  loosens: [],
  locked: [],
  loosened: [],
};

const EVERY_SENDING_RULE = [
  "policy.daily-cap-bypass",
  "policy.min-test-contacts",
  "policy.max-estimated-cost-usd",
  "policy.send-window",
  "policy.require-suppression-lists",
  "policy.require-help",
  "policy.require-opt-out-language",
  "policy.require-guards",
];

/** The live project as read: sent on 2026-10-20 at 22:00 Chicago. */
const read = (status: Project["status"]) =>
  liveProject({
    status,
    message_text: late.message ?? "",
    contact_list_ids: [LIST_WARD],
    estimated_cost_cents: 500,
    scheduled_at: "2026-10-21T03:00:00.000Z",
    scheduled_timezone: "America/Chicago",
  });

function input(status: Project["status"]): JudgeInput {
  return {
    campaign: campaignOf(late),
    policy,
    live: world({ projects: [read(status)] }),
    now: NOW,
    targets: [],
    excludes: [],
    forecast: true,
    capacity: {
      capacity: { brands: {}, defaultDailyCap: 2000, throughput: DEFAULT_THROUGHPUT },
      fastest: DEFAULT_THROUGHPUT,
      policyBrands: [],
      diagnostics: [],
    },
    liveSends: NO_LIVE_SENDS,
    baseUrl: "http://127.0.0.1:4010/v1",
    toolVersion: "0.1.0-test",
    organizationId: ORG,
    allowCrossOrganizationKey: false,
    requests: { total: 0, by_endpoint: {}, naive: 0 },
    diagnostics: [],
  };
}

const policyCodes = (status: Project["status"]) => {
  const { plan } = judge(input(status));
  return plan.projects
    .flatMap((p) => p.diagnostics.map((d) => d.code))
    .filter((c) => c.startsWith("policy."));
};

describe("a project whose live state is completed", () => {
  it("breaks no rule about sending, in the plan", () => {
    expect(policyCodes("completed")).toEqual([]);
  });

  it("is left out of the forecast: it sends nothing more", () => {
    expect(judge(input("completed")).forecast?.projects.map((p) => p.address)).toEqual([]);
    expect(judge(input("ready")).forecast?.projects.map((p) => p.address)).toEqual(["gotv-reminder"]);
  });

  it("the same file, with a project that will still send, is judged by every rule about sending", () => {
    expect(new Set(policyCodes("ready"))).toEqual(new Set(EVERY_SENDING_RULE));
  });

  it("policyViolations: the live state read decides (offline, the file alone does)", () => {
    const codes = (completed: boolean | undefined) =>
      policyViolations(policy, late, {
        now: NOW,
        estimatedCostCents: 500,
        facts: {
          organization: [ORG],
          lists: [["Ward 3 Likely Voters"]],
          span: null,
          ...(completed === undefined ? {} : { completed }),
        },
      }).map((d) => d.code);
    expect(codes(true)).toEqual([]);
    expect(new Set(codes(false))).toEqual(new Set(EVERY_SENDING_RULE));
    expect(new Set(codes(undefined))).toEqual(new Set(EVERY_SENDING_RULE));
  });
});
