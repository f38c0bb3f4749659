/**
 * A project judged alone against the plan's context (src/plan/project-judgement.ts), as apply's
 * re-check right before a send judges it, is the project within the whole plan: for every project
 * of a varied plan (ordering chains through a drifted project and a budget hold, a holdout waiting
 * for its verdict, a schedule in the past, a pause, forecast cap errors,
 * the window rule over each send, budgets spent so far, sends unseen, `--target`/`--exclude`).
 */
import { describe, expect, it } from "vitest";
import type { ProjectSpec } from "../../src/campaign/model.js";
import type { Project } from "../../src/contract/resources.js";
import { DEFAULT_THROUGHPUT } from "../../src/forecast/capacity.js";
import { type JudgeInput, judgeScoped, rejudge } from "../../src/plan/judge.js";
import { NO_LIVE_SENDS } from "../../src/plan/live-sends.js";
import { judgeProject } from "../../src/plan/project-judgement.js";
import type { Plan } from "../../src/plan/types.js";
import { NO_POLICY_CAPACITY, type Policy } from "../../src/policy/model.js";
import { campaignOf, LIST_WARD, liveProject, ORG, SCHEDULE, spec, world } from "./builders.js";

const NOW = new Date("2026-11-01T12:00:00.000Z");
const idOf = (n: number) => `9a000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

interface Row {
  readonly address: string;
  readonly spec?: Partial<ProjectSpec>;
  readonly live?: Partial<Project>;
}

/** Sends of 40 recipients, each $1.20 unless said, at 10:00 CST, one a day from 2026-11-03. */
const ROWS: readonly Row[] = [
  { address: "a" },
  { address: "b", live: { message_text: "drifted in the dashboard" } },
  { address: "c", spec: { after: ["b"] } },
  { address: "d", spec: { after: ["a"] } },
  { address: "e", spec: { schedule: { ...SCHEDULE, at: "2026-10-30T10:00:00-06:00" } } },
  {
    address: "f",
    spec: { state: "paused" },
    live: { status: "scheduled", scheduled_at: "2026-11-03T16:00:00.000Z" },
  },
  { address: "g" },
  { address: "h", live: { total_recipients: 400 } },
  { address: "i" },
  { address: "j", live: { estimated_cost_cents: 5000 } },
  { address: "k", spec: { after: ["j"] } },
  { address: "l" },
  { address: "m", spec: { schedule: { ...SCHEDULE, at: "2026-11-15T07:00:00-06:00" } } },
  { address: "n", live: { estimated_cost_cents: 2000 } },
];

const specs = ROWS.map((row, i) =>
  spec({
    address: row.address,
    id: idOf(i + 1),
    state: "scheduled",
    brand: "Riverside Democrats",
    contactLists: ["Ward 3 Likely Voters"],
    schedule: { ...SCHEDULE, at: `2026-11-${String(3 + i).padStart(2, "0")}T10:00:00-06:00` },
    ...row.spec,
  }),
);
const lives = ROWS.map((row, i) =>
  liveProject({
    project_id: idOf(i + 1),
    name: row.address,
    status: "ready",
    contact_list_ids: [LIST_WARD],
    total_recipients: 40,
    ...row.live,
  }),
);

const policy: Policy = {
  file: "campaignctl.policy.yaml",
  files: ["campaignctl.policy.yaml"],
  rules: {
    forecast_errors: ["cap-pause"],
    send_window: { from: "09:00", to: "20:00" },
    budgets: [{ usd: 30, per: "month" }],
  },
  ranges: {},
  capacity: NO_POLICY_CAPACITY,
  loosens: [],
  locked: [],
  loosened: [],
};

function input(overrides: Partial<JudgeInput> = {}): JudgeInput {
  return {
    campaign: {
      ...campaignOf(...specs),
      experiments: [
        {
          name: "wording",
          file: "gotv.yaml",
          arms: ["g", "h"],
          metric: "reply_rate",
          minSample: 100,
          holdout: "i",
          range: specs[0]?.range as ProjectSpec["range"],
          armRanges: [],
        },
      ],
    },
    policy,
    live: world({ projects: lives }),
    now: NOW,
    targets: [],
    excludes: [],
    forecast: true,
    capacity: {
      capacity: {
        brands: { "Riverside Democrats": 250 },
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
    budgetSpend: [{ cents: 1000 }],
    diagnostics: [],
    ...overrides,
  };
}

/** Every project of the whole judgement, judged alone against its context at the same instant. */
function alone(judged: JudgeInput): { readonly plan: Plan; readonly each: readonly unknown[] } {
  const { plan, context } = judgeScoped(
    judged,
    judged.live.projects,
    judged.now,
    judged.targets,
    judged.excludes,
  );
  return { plan, each: plan.projects.map((p) => judgeProject(context, p.address, judged.now)) };
}

const verdicts = (plan: Plan) =>
  plan.projects.flatMap((p) =>
    p.actions.map((a) => `${a.id} ${a.status} ${(a.block?.codes ?? []).join(",")}`),
  );

describe("a project judged alone against the plan's context is the project within the whole plan", () => {
  it("every project of a varied plan, under a policy with budgets, forecast errors and a send window", () => {
    const { plan, each } = alone(input());
    expect(each).toEqual(plan.projects);
    // The plan is as varied as it says: every cross-project rule holds something.
    expect(verdicts(plan)).toEqual([
      "a.schedule planned ",
      "b.schedule blocked plan.drift",
      "c.schedule blocked plan.drift",
      "d.schedule planned ",
      "e.schedule blocked plan.schedule-in-past,policy.send-window",
      "f.pause planned ",
      "g.schedule planned ",
      "h.schedule blocked forecast.cap-pause",
      "i.schedule deferred ",
      "j.schedule blocked policy.budget",
      "k.schedule blocked policy.budget",
      "l.schedule planned ",
      "m.schedule blocked policy.send-window",
      "n.schedule blocked policy.budget",
    ]);
    expect(plan.budgets?.[0]).toMatchObject({ spent_cents: 1000, held: ["j", "n"] });
  });

  it("without a policy or a forecast, with --target and --exclude, and with the brand's live sends unseen", () => {
    for (const variant of [
      input({ policy: null, forecast: false }),
      input({ targets: ["c", "d", "k"], excludes: ["a"] }),
      input({ liveSends: { ...NO_LIVE_SENDS, complete: false } }),
      input({ budgetSpend: [{ unreadable: "503" }] }),
    ]) {
      const { plan, each } = alone(variant);
      expect(plan.projects.length).toBeGreaterThan(0);
      expect(each).toEqual(plan.projects);
    }
  });

  it("a project the plan does not cover is not judged alone", () => {
    const scoped = input({ targets: ["a"] });
    const { context } = judgeScoped(scoped, scoped.live.projects, NOW, ["a"], []);
    expect(judgeProject(context, "b", NOW)).toBeUndefined();
  });

  it("apply's re-check: later on the clock, the project's own schedule is judged on that clock", () => {
    const judged = rejudge(input())(input().live.projects, NOW);
    const late = new Date("2026-11-03T16:00:01.000Z");
    const schedule = judged.project("a", late)?.actions.find((a) => a.kind === "schedule");
    expect(schedule?.status).toBe("blocked");
    expect(schedule?.block?.codes).toContain("plan.schedule-in-past");
    // The budget's hold rests on the context (the sends before it), whatever the clock.
    expect(judged.project("j", late)?.actions[0]?.block?.codes).toContain("policy.budget");
  });
});
