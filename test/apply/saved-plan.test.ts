/**
 * A saved plan is the reviewed expectation: `compareWithReviewed` and `sameAsReviewed`, table-driven;
 * and the checks before any request (`checkPlanSources`, `compareFiles`, `compareScope`).
 */
import { describe, expect, test } from "vitest";
import { compareWithReviewed, sameAsReviewed } from "../../src/apply/saved-plan.js";
import { checkPlanSources, compareFiles, compareScope } from "../../src/apply/stale.js";
import { NO_ITEMS } from "../../src/plan/summary.js";
import type { Action, Plan, ProjectPlan } from "../../src/plan/types.js";
import { looksLikePlanDocument } from "../../src/report/plan-schema.js";

const MADE = "2026-11-25T10:00:00.000Z";
const LATER = "2026-11-25T10:07:30.000Z";
const SHA = "a".repeat(64);

const TEST: Action = {
  id: "reminder.test",
  address: "reminder",
  project_id: "p-1",
  kind: "test",
  status: "planned",
  request: {
    method: "POST",
    path: "/projects/p-1/test",
    body: { test_contacts: [{ phone: "+15035550150", merge_values: { first_name: "Maria" } }] },
    idempotency_key: "cc1-test-key",
  },
  depends_on: [],
  before: "draft",
  after: "awaiting_test",
  reason: "send a test",
};

const SCHEDULE: Action = {
  id: "reminder.schedule",
  address: "reminder",
  project_id: "p-1",
  kind: "schedule",
  status: "deferred",
  request: {
    method: "POST",
    path: "/projects/p-1/schedule",
    body: {
      scheduled_at: "2026-12-07T10:00:00-06:00",
      scheduled_timezone: "America/Chicago",
      daily_cap_bypass: false,
    },
    idempotency_key: null,
  },
  depends_on: ["reminder.test"],
  before: "awaiting_test",
  after: "scheduled",
  reason: "schedule after the test is approved",
  waits_for: "test approval",
};

function project(actions: readonly Action[], overrides: Partial<ProjectPlan> = {}): ProjectPlan {
  return {
    address: "reminder",
    file: "campaign.yaml",
    project_id: "p-1",
    name: "Reminder",
    desired: "scheduled",
    live: { status: "draft", updated_at: MADE },
    drift: [],
    actions,
    estimate: null,
    audience: null,
    schedule: null,
    sends: false,
    guard: null,
    diagnostics: [],
    notes: [],
    ...overrides,
  };
}

function plan(projects: readonly ProjectPlan[], overrides: Partial<Plan> = {}): Plan {
  return {
    format_version: 3,
    tool_version: "test",
    created_at: MADE,
    base_url: "https://api.example.test/v1",
    organization_id: "org-1",
    files: [{ path: "campaign.yaml", sha256: SHA, kind: "campaign" }],
    targets: [],
    excludes: [],
    policy: null,
    projects,
    diagnostics: [],
    requests: { total: 0, by_endpoint: {}, naive: 0 },
    summary: {
      ...NO_ITEMS,
      projects: 1,
      planned: 1,
      deferred: 1,
      blocked: 0,
      drifted: 0,
      errors: 0,
      warnings: 0,
    },
    totals: {
      overall: {
        projects: 0,
        not_estimated: 0,
        recipients: 0,
        sms_segments: 0,
        mms_messages: 0,
        estimated_cost_cents: 0,
      },
      by_organization: [],
    },
    ...overrides,
  };
}

const withBody = (a: Action, body: unknown, key = a.request.idempotency_key): Action => ({
  ...a,
  request: { ...a.request, body, idempotency_key: key },
});

const reviewed = plan([project([TEST, SCHEDULE])]);

describe("compareWithReviewed", () => {
  const cases: readonly {
    readonly name: string;
    readonly saved: Plan;
    readonly fresh: Plan;
    /** Each diagnostic's message must contain these, in order of the diagnostics. */
    readonly expected: readonly string[];
  }[] = [
    { name: "the same plan", saved: reviewed, fresh: reviewed, expected: [] },
    {
      name: "the same plan made later (created_at, requests, summary are not compared)",
      saved: reviewed,
      fresh: { ...reviewed, created_at: LATER, requests: { total: 9, by_endpoint: {}, naive: 9 } },
      expected: [],
    },
    {
      name: "an edited test number",
      saved: plan([
        project([
          withBody(TEST, {
            test_contacts: [{ phone: "+15035550199", merge_values: { first_name: "Maria" } }],
          }),
          SCHEDULE,
        ]),
      ]),
      fresh: reviewed,
      expected: [
        'reminder.test: request.body.test_contacts[0].phone differs (saved: "+15035550199"; fresh: "+15035550150")',
      ],
    },
    {
      name: "an added contact",
      saved: plan([
        project([
          withBody(TEST, {
            test_contacts: [
              { phone: "+15035550150", merge_values: { first_name: "Maria" } },
              { phone: "+15035550177" },
            ],
          }),
          SCHEDULE,
        ]),
      ]),
      fresh: reviewed,
      expected: [
        'reminder.test: request.body.test_contacts[1] differs (saved: {"phone":"+15035550177"}; fresh: absent)',
      ],
    },
    {
      name: "a changed merge value",
      saved: plan([
        project([
          withBody(TEST, {
            test_contacts: [{ phone: "+15035550150", merge_values: { first_name: "Mallory" } }],
          }),
          SCHEDULE,
        ]),
      ]),
      fresh: reviewed,
      expected: ["reminder.test: request.body.test_contacts[0].merge_values.first_name differs"],
    },
    {
      name: "an edited idempotency key",
      saved: plan([project([withBody(TEST, TEST.request.body, "cc1-forged"), SCHEDULE])]),
      fresh: reviewed,
      expected: ["reminder.test: request.idempotency_key differs (saved: cc1-forged; fresh: cc1-test-key)"],
    },
    {
      name: "a test retargeted to another project",
      saved: plan([
        project([{ ...TEST, request: { ...TEST.request, path: "/projects/p-2/test" } }, SCHEDULE]),
      ]),
      fresh: reviewed,
      expected: [
        "reminder.test: request.path differs (saved: /projects/p-2/test; fresh: /projects/p-1/test)",
      ],
    },
    {
      name: "a whole project retargeted (its id and its actions' ids)",
      saved: plan([
        project(
          [
            { ...TEST, project_id: "p-2", request: { ...TEST.request, path: "/projects/p-2/test" } },
            {
              ...SCHEDULE,
              project_id: "p-2",
              request: { ...SCHEDULE.request, path: "/projects/p-2/schedule" },
            },
          ],
          { project_id: "p-2" },
        ),
      ]),
      fresh: reviewed,
      expected: [
        "reminder: project_id differs (saved: p-2; fresh: p-1)",
        "reminder.test: project_id differs",
        "reminder.test: request.path differs",
        "reminder.schedule: project_id differs",
        "reminder.schedule: request.path differs",
      ],
    },
    {
      name: "a deferred schedule flipped to planned",
      saved: plan([
        project([
          TEST,
          { ...SCHEDULE, status: "planned", request: { ...SCHEDULE.request, idempotency_key: "cc1-x" } },
        ]),
      ]),
      fresh: reviewed,
      expected: ["reminder.schedule: status differs (saved: planned; fresh: deferred)"],
    },
    {
      name: "a scheduled_at moved into the past",
      saved: plan([
        project([
          TEST,
          withBody(SCHEDULE, {
            ...(SCHEDULE.request.body as object),
            scheduled_at: "2026-11-20T10:00:00-06:00",
          }),
        ]),
      ]),
      fresh: reviewed,
      expected: ["reminder.schedule: request.body.scheduled_at differs"],
    },
    {
      name: "a saved action the fresh plan does not have",
      saved: reviewed,
      fresh: plan([
        project(
          [SCHEDULE].map((a) => ({ ...a, depends_on: [] })),
          { live: { status: "awaiting_test", updated_at: LATER } },
        ),
      ]),
      expected: [
        "reminder.test: action differs (saved: planned test; fresh: absent (live status is awaiting_test",
        "reminder.schedule: depends_on differs",
      ],
    },
    {
      name: "a fresh action the saved plan does not have",
      saved: plan([project([TEST])]),
      fresh: reviewed,
      expected: ["reminder.schedule: action differs (saved: absent; fresh: deferred schedule)"],
    },
    {
      name: "a fresh action blocked (a dashboard edit) names the block",
      saved: reviewed,
      fresh: plan([
        project([
          TEST,
          {
            ...SCHEDULE,
            status: "blocked",
            block: {
              reason: "the live project drifted from the file (message)",
              fix: "edit",
              codes: ["plan.drift"],
            },
          },
        ]),
      ]),
      expected: [
        "reminder.schedule: status differs (saved: deferred; fresh: blocked: the live project drifted from the file (message))",
      ],
    },
    {
      name: "a project in the files the saved plan lacks",
      saved: reviewed,
      fresh: plan([project([TEST, SCHEDULE]), project([], { address: "other", project_id: "p-9" })]),
      expected: ["other: project differs (saved: absent; fresh: project p-9 from campaign.yaml)"],
    },
    {
      name: "a saved project the files no longer have",
      saved: plan([project([TEST, SCHEDULE]), project([], { address: "other", project_id: "p-9" })]),
      fresh: reviewed,
      expected: [
        "other: project differs (saved: project p-9 from campaign.yaml; fresh: absent from the files)",
      ],
    },
    {
      name: "files are not compared here: checkPlanSources and compareFiles decide them before any request",
      saved: { ...reviewed, files: [{ path: "campaign.yaml", sha256: "b".repeat(64), kind: "campaign" }] },
      fresh: reviewed,
      expected: [],
    },
    {
      name: "a project that cannot be read now",
      saved: plan([project([])]),
      fresh: plan([project([], { live: null })]),
      expected: ["reminder: live differs (saved: read; fresh: unreadable now)"],
    },
    {
      name: "another desired state",
      saved: plan([project([], { desired: "tested" })]),
      fresh: plan([project([])]),
      expected: ["reminder: desired differs (saved: tested; fresh: scheduled)"],
    },
    {
      name: "a deferred schedule approved since the plan: fresh planned with the same request is accepted",
      saved: reviewed,
      fresh: plan([
        project([
          TEST,
          { ...SCHEDULE, status: "planned", request: { ...SCHEDULE.request, idempotency_key: "cc1-now" } },
        ]),
      ]),
      expected: [],
    },
    {
      name: "a schedule `at: now` in both plans: each scheduled_at is its plan's own time",
      saved: plan([
        project([
          withBody(
            { ...SCHEDULE, status: "planned" },
            { ...(SCHEDULE.request.body as object), scheduled_at: "2026-11-25T04:00:00-06:00" },
            "cc1-a",
          ),
        ]),
      ]),
      fresh: plan(
        [
          project([
            withBody(
              { ...SCHEDULE, status: "planned" },
              { ...(SCHEDULE.request.body as object), scheduled_at: "2026-11-25T04:07:30-06:00" },
              "cc1-b",
            ),
          ]),
        ],
        { created_at: LATER },
      ),
      expected: [],
    },
    {
      name: "a fixed schedule time is not `now` because it differs from the fresh plan's time",
      saved: plan([
        project([
          withBody(
            { ...SCHEDULE, status: "planned" },
            { ...(SCHEDULE.request.body as object), scheduled_at: "2026-11-25T04:00:00-06:00" },
            "cc1-a",
          ),
        ]),
      ]),
      fresh: plan([project([withBody({ ...SCHEDULE, status: "planned" }, SCHEDULE.request.body, "cc1-b")])], {
        created_at: LATER,
      }),
      expected: [
        "reminder.schedule: request.body.scheduled_at differs",
        "reminder.schedule: request.idempotency_key differs",
      ],
    },
  ];
  test.each(cases)("$name", ({ saved, fresh, expected }) => {
    const out = compareWithReviewed(saved, fresh);
    expect(out.map((d) => d.message)).toHaveLength(expected.length);
    out.forEach((d, i) => {
      expect(d.severity).toBe("error");
      expect(d.message).toContain(expected[i]);
    });
    expect(out.every((d) => d.code === "apply.plan-differs")).toBe(true);
  });
});

describe("sameAsReviewed", () => {
  const approved = {
    ...SCHEDULE,
    status: "planned" as const,
    before: "ready" as const,
    request: { ...SCHEDULE.request, idempotency_key: "cc1-fresh" },
  };
  const cases: readonly {
    readonly name: string;
    readonly saved: Action;
    readonly fresh: Action;
    readonly differs: readonly string[];
  }[] = [
    { name: "the same action", saved: TEST, fresh: TEST, differs: [] },
    {
      name: "a deferred action now runnable, same request: its fresh key is its own",
      saved: SCHEDULE,
      fresh: approved,
      differs: [],
    },
    {
      name: "edited in the dashboard meanwhile: the fresh action is blocked as drift",
      saved: SCHEDULE,
      fresh: {
        ...approved,
        status: "blocked",
        block: { reason: "the live project drifted from the file (message)", fix: "", codes: ["plan.drift"] },
      },
      differs: ["status: saved deferred, fresh blocked: the live project drifted from the file (message)"],
    },
    {
      name: "another body",
      saved: SCHEDULE,
      fresh: withBody(approved, { ...(SCHEDULE.request.body as object), daily_cap_bypass: true }),
      differs: ["request.body.daily_cap_bypass: saved false, fresh true"],
    },
    {
      name: "another key for a keyed action",
      saved: TEST,
      fresh: withBody(TEST, TEST.request.body, "cc1-other"),
      differs: ["request.idempotency_key"],
    },
    {
      name: "another project",
      saved: TEST,
      fresh: { ...TEST, project_id: "p-2" },
      differs: ["project_id: saved p-1, fresh p-2"],
    },
    {
      name: "what it waited for is done: its test is no longer a dependency",
      saved: SCHEDULE,
      fresh: { ...approved, depends_on: [] },
      differs: [],
    },
  ];
  test.each(cases)("$name", ({ saved, fresh, differs }) => {
    const out = sameAsReviewed(saved, fresh);
    if (differs.length === 0) expect(out).toBeNull();
    else {
      expect(out?.code).toBe("apply.plan-differs");
      expect(out?.message).toContain(saved.id);
      for (const d of differs) expect(out?.message).toContain(d);
    }
  });
  test("`at: now` needs the two times it was judged at", () => {
    const saved = withBody(SCHEDULE, {
      ...(SCHEDULE.request.body as object),
      scheduled_at: "2026-11-25T04:00:00-06:00",
    });
    const fresh = withBody(approved, {
      ...(SCHEDULE.request.body as object),
      scheduled_at: "2026-11-25T04:07:30-06:00",
    });
    expect(sameAsReviewed(saved, fresh)?.message).toContain("request.body.scheduled_at");
    expect(sameAsReviewed(saved, fresh, { reviewed: MADE, fresh: LATER })).toBeNull();
  });
});

describe("checks before any request", () => {
  test("checkPlanSources: no files, or a project from a file the plan does not list", () => {
    expect(checkPlanSources(reviewed, "plan.json")).toEqual([]);
    // The one check of a plan without files (compareWithReviewed does not look at files).
    const none = checkPlanSources({ ...reviewed, files: [] }, "plan.json");
    expect(none.map((d) => `${d.code}: ${d.message}`)).toEqual([
      "apply.plan-no-files: plan.json names no campaign files, so it cannot be re-derived and checked before anything is sent",
    ]);
    const foreign = plan([project([TEST, SCHEDULE], { file: "elsewhere.yaml" })]);
    expect(checkPlanSources(foreign, "plan.json")[0]?.message).toContain("comes from elsewhere.yaml");
  });
  test("compareFiles: a file with another sha256, and a file that is gone", () => {
    // The one check of the files' bytes (compareWithReviewed does not look at files).
    const saved = {
      ...reviewed,
      files: [{ path: "campaign.yaml", sha256: "b".repeat(64), kind: "campaign" as const }],
    };
    const now = new Map([["campaign.yaml", { kind: "found", sha256: SHA } as const]]);
    expect(compareFiles(saved, now, "plan.json").map((d) => `${d.code}: ${d.message}`)).toEqual([
      "apply.files-changed: campaign.yaml changed since the plan was made (sha256 bbbbbbbbbbbb in the plan, aaaaaaaaaaaa now)",
    ]);
    expect(compareFiles(saved, new Map(), "plan.json").map((d) => `${d.code}: ${d.message}`)).toEqual([
      "apply.file-missing: campaign.yaml, from which the plan was made, is missing",
    ]);
    expect(compareFiles(reviewed, now, "plan.json")).toEqual([]);
  });
  test.each([
    { visible: ["org-1"], organization: "org-1", refused: false },
    { visible: ["org-0", "org-1"], organization: "org-1", refused: false },
    { visible: ["org-2"], organization: "org-1", refused: true },
    { visible: [], organization: "org-1", refused: true },
    { visible: ["org-1"], organization: undefined, refused: true },
  ])(
    "compareScope: the key sees $visible, the plan is for $organization",
    ({ visible, organization, refused }) => {
      const out = compareScope(
        { ...reviewed, organization_id: organization },
        visible,
        "CAMPAIGNCTL_API_KEY",
      );
      expect(out.map((d) => d.code)).toEqual(refused ? ["apply.key-scope"] : []);
    },
  );
  test.each([
    { text: '{"format_version": 2, "projects": []}', plan: true },
    { text: '  {"format_version": 99}', plan: true },
    { text: "version: 1\nprojects: {}\n", plan: false },
    { text: '{"version": 1}', plan: false },
    { text: "{not json", plan: false },
    { text: "[1]", plan: false },
  ])("looksLikePlanDocument($text) is $plan", ({ text, plan: expected }) => {
    expect(looksLikePlanDocument(text)).toBe(expected);
  });
});
