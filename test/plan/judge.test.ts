/**
 * The judge (src/plan/judge.ts, design.md principle 11) as a pure function: no CLI, no HTTP, no
 * disk. The files, the policy, the live reads, the clock, the capacity and the brand's live sends
 * are built here; the test asserts the verdicts and the typed forecast it returns.
 */
import { describe, expect, it } from "vitest";
import type { Project } from "../../src/contract/resources.js";
import { DEFAULT_THROUGHPUT } from "../../src/forecast/capacity.js";
import { liveSendAddress } from "../../src/plan/forecast-of-plan.js";
import { type JudgeInput, judge, rejudge } from "../../src/plan/judge.js";
import { type LiveSends, NO_LIVE_SENDS } from "../../src/plan/live-sends.js";
import type { Plan } from "../../src/plan/types.js";
import { NO_POLICY_CAPACITY, type Policy } from "../../src/policy/model.js";
import {
  BRAND,
  campaignOf,
  LIST_WARD,
  liveProject,
  ORG,
  SCHEDULE,
  spec,
  TEST_BLOCK,
  world,
} from "./builders.js";

const NOW = new Date("2026-11-01T12:00:00.000Z");
/** The run's project: 40 recipients on 2026-11-03 at 10:00 CST (16:00 UTC), 75 a minute. */
const reminder = spec({
  state: "scheduled",
  brand: "Riverside Democrats",
  contactLists: ["Ward 3 Likely Voters"],
  test: TEST_BLOCK,
  schedule: SCHEDULE,
});
const live = liveProject({ status: "ready", contact_list_ids: [LIST_WARD], total_recipients: 40 });

/** An earlier run's schedule of the same brand: 38 recipients at 09:00 CST the same day. */
function earlier(overrides: Partial<Project> = {}): Project {
  return liveProject({
    project_id: "9a000000-0000-4000-8000-0000000000aa",
    name: "Early reminder",
    status: "scheduled",
    total_recipients: 38,
    scheduled_at: "2026-11-03T15:00:00.000Z",
    scheduled_timezone: "America/Chicago",
    ...overrides,
  });
}

const sends = (...projects: Project[]): LiveSends => ({
  sent: new Map(),
  complete: true,
  others: projects.map((project) => ({
    project,
    sent: 0,
    brandName: "Riverside Democrats",
    organizationName: "Riverside Democrats",
  })),
});

const policy = (rules: Policy["rules"]): Policy => ({
  file: "campaignctl.policy.yaml",
  files: ["campaignctl.policy.yaml"],
  rules,
  ranges: {
    forecast_errors: {
      file: "campaignctl.policy.yaml",
      start: { line: 3, column: 1, offset: 40 },
      end: { line: 3, column: 16, offset: 55 },
    },
  },
  capacity: NO_POLICY_CAPACITY,
  loosens: [],
  locked: [],
  loosened: [],
});

function input(overrides: Partial<JudgeInput> = {}): JudgeInput {
  return {
    campaign: campaignOf(reminder),
    policy: null,
    live: world({ projects: [live] }),
    now: NOW,
    targets: [],
    excludes: [],
    forecast: true,
    capacity: {
      capacity: {
        brands: { "Riverside Democrats": 50 },
        defaultDailyCap: 2000,
        throughput: DEFAULT_THROUGHPUT,
      },
      fastest: DEFAULT_THROUGHPUT,
      policyBrands: ["Riverside Democrats"],
      diagnostics: [],
    },
    liveSends: NO_LIVE_SENDS,
    baseUrl: "http://127.0.0.1:4010/v1",
    toolVersion: "0.1.0-test",
    organizationId: ORG,
    allowCrossOrganizationKey: false,
    requests: { total: 0, by_endpoint: {}, naive: 0 },
    diagnostics: [],
    ...overrides,
  };
}

const scheduleOf = (plan: Plan) =>
  plan.projects.find((p) => p.address === "gotv-reminder")?.actions.find((a) => a.kind === "schedule");
const codesOf = (plan: Plan) =>
  plan.projects.find((p) => p.address === "gotv-reminder")?.diagnostics.map((d) => `${d.severity} ${d.code}`);

describe("judge: files + policy + live reads + clock + capacity + live sends -> plan and typed forecast", () => {
  it("alone under the cap: the schedule is planned, the forecast is typed and carried by the plan", () => {
    const { plan, forecast } = judge(input());
    expect(scheduleOf(plan)?.status).toBe("planned");
    expect(forecast?.projects.map((p) => [p.address, p.recipients, p.pause])).toEqual([
      ["gotv-reminder", 40, null],
    ]);
    // The plan carries the same forecast, typed: no parsing to read it.
    expect(plan.forecast?.projects[0]?.address).toBe("gotv-reminder");
    expect(plan.forecast?.brand_days.map((d) => [d.pacific_day, d.daily_cap, d.total])).toEqual([
      ["2026-11-03", 50, 40],
    ]);
    expect(codesOf(plan)).toEqual([]);
  });

  it("an earlier run's live schedule of the brand takes its share of the day: the run's project pauses at the cap", () => {
    const { plan, forecast } = judge(input({ liveSends: sends(earlier()) }));
    const mine = forecast?.projects.find((p) => p.address === "gotv-reminder");
    expect(mine?.pause?.recipientsLeft).toBe(28);
    expect(forecast?.brandDays[0]?.shares.map((s) => [s.address, s.messages])).toEqual([
      [liveSendAddress({ name: "Early reminder", project_id: "9a000000-0000-4000-8000-0000000000aa" }), 38],
      ["gotv-reminder", 12],
    ]);
    // A finding about the run's project only: the earlier send is not this run's to judge, nor
    // to pay for (the costs are the run's project's: 120 cents estimated).
    expect(forecast?.findings.map((f) => f.address)).toEqual(["gotv-reminder"]);
    expect(forecast?.costs.total.estimatedCostCents).toBe(120);
    expect(codesOf(plan)).toEqual(["warning forecast.cap-pause"]);
    expect(scheduleOf(plan)?.status).toBe("planned");
  });

  it("under forecast_errors the finding is an error that holds the send; a rejudge of the project alone holds it too", () => {
    const held = input({ liveSends: sends(earlier()), policy: policy({ forecast_errors: ["cap-pause"] }) });
    const { plan } = judge(held);
    expect(codesOf(plan)).toEqual(["error forecast.cap-pause"]);
    expect(scheduleOf(plan)?.status).toBe("blocked");
    expect(scheduleOf(plan)?.block?.codes).toContain("forecast.cap-pause");
    expect(plan.summary.errors).toBeGreaterThan(0);
    // apply's re-check right before the send: the same function, other reads, another instant.
    const at = new Date("2026-11-02T00:00:00.000Z");
    const again = rejudge(held)(held.live.projects, at).project("gotv-reminder", at);
    expect(again?.actions.find((a) => a.kind === "schedule")?.status).toBe("blocked");
    // Without the policy, forecast is still judged only when asked.
    expect(judge({ ...held, policy: null, forecast: false }).plan.forecast).toBeUndefined();
  });

  it("a live send of another brand, a completed one, or one sending on another day does not count", () => {
    const other = earlier({ brand_id: "b1a2c3d4-0000-4000-8000-0000000000ff" });
    const nextDay = earlier({ scheduled_at: "2026-11-04T15:00:00.000Z" });
    const { forecast } = judge(input({ liveSends: sends(other, nextDay) }));
    expect(forecast?.projects.find((p) => p.address === "gotv-reminder")?.pause).toBeNull();
    expect(forecast?.projects.map((p) => p.address)).toHaveLength(2);
  });

  it("a live send already sending counts what it sent today against the cap", () => {
    const sending = earlier({ status: "active", scheduled_at: "2026-11-03T15:00:00.000Z" });
    const at = new Date("2026-11-03T15:10:00.000Z");
    const { others } = sends(sending);
    const liveSends: LiveSends = {
      complete: true,
      sent: new Map([[sending.project_id, 20]]),
      others: others.map((o) => ({ ...o, sent: 20 })),
    };
    const { forecast } = judge(input({ now: at, liveSends }));
    const day = forecast?.brandDays.find((d) => d.pacificDay === "2026-11-03");
    expect(day?.total).toBe(50);
    expect(forecast?.projects.find((p) => p.address === "gotv-reminder")?.pause?.recipientsLeft).toBe(28);
  });

  it("under forecast_errors, live sends not all read hold every send the forecast covers (a warning without the rule)", () => {
    const unseen: LiveSends = { ...sends(), complete: false };
    const strict = judge(input({ liveSends: unseen, policy: policy({ forecast_errors: ["cap-pause"] }) }));
    expect(codesOf(strict.plan)).toEqual(["error forecast.sent-unknown"]);
    expect(scheduleOf(strict.plan)?.status).toBe("blocked");
    expect(scheduleOf(strict.plan)?.block?.codes).toEqual(["forecast.sent-unknown"]);
    expect(strict.plan.projects[0]?.diagnostics[0]?.related?.[0]?.message).toBe(
      "the policy's rule forecast_errors",
    );
    // Without the rule the forecast is a lower bound and nothing is held (the gathering warned).
    const lenient = judge(input({ liveSends: unseen }));
    expect(scheduleOf(lenient.plan)?.status).toBe("planned");
  });

  it("the same input gives the same judgement (no clock, no IO of its own)", () => {
    const i = input({ liveSends: sends(earlier()) });
    expect(judge(i)).toEqual(judge(i));
  });

  it("under forecast_errors, a cap only the campaign files declare is not known: capacity-unknown holds the send", () => {
    const held = input({
      policy: policy({ forecast_errors: ["cap-pause"] }),
      capacity: { ...input().capacity, policyBrands: [] },
    });
    const { plan } = judge(held);
    expect(codesOf(plan)).toEqual(["error forecast.capacity-unknown"]);
    expect(scheduleOf(plan)?.status).toBe("blocked");
  });

  it("a policy cap under the live brand id holds a project whose file names the brand (one brand, one cap)", () => {
    const base = input().capacity;
    const held = input({
      liveSends: sends(earlier()),
      policy: policy({ forecast_errors: ["cap-pause"] }),
      capacity: {
        ...base,
        capacity: { ...base.capacity, brands: { [BRAND]: 50, "Riverside Democrats": 100_000 } },
        policyBrands: [BRAND],
      },
    });
    const { plan, forecast } = judge(held);
    expect(codesOf(plan)).toEqual(["error forecast.cap-pause"]);
    expect(forecast?.brandDays.map((d) => d.dailyCap)).toEqual([50]);
    expect(scheduleOf(plan)?.status).toBe("blocked");
  });

  it("two files' projects of one live brand, one naming it and one writing its id, share its cap", () => {
    const second = spec({
      address: "gotv-second",
      id: "9a000000-0000-4000-8000-0000000000bb",
      state: "scheduled",
      brand: BRAND,
      contactLists: ["Ward 3 Likely Voters"],
      test: TEST_BLOCK,
      schedule: SCHEDULE,
    });
    const secondLive = liveProject({
      project_id: "9a000000-0000-4000-8000-0000000000bb",
      status: "ready",
      contact_list_ids: [LIST_WARD],
      total_recipients: 40,
    });
    const { forecast } = judge(
      input({ campaign: campaignOf(reminder, second), live: world({ projects: [live, secondLive] }) }),
    );
    // One brand day of 80 wanted against the cap of 50 (declared under the name): sending side by
    // side from the same instant, both pause at it (as two brands, each would have finished).
    expect(forecast?.brandDays.map((d) => [d.dailyCap, d.total])).toEqual([[50, 50]]);
    expect(forecast?.projects.filter((p) => p.pause !== null).map((p) => p.address)).toEqual([
      "gotv-reminder",
      "gotv-second",
    ]);
  });
});
