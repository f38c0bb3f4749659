/** The reconciliation loop's pure parts: the decision step, the end results, the basis rule. Table-driven. */
import { describe, expect, test } from "vitest";
import { confirms } from "../../src/apply/basis.js";
import { decideRound } from "../../src/apply/decide.js";
import { projectsToRead } from "../../src/apply/loop-round.js";
import { unsentResult } from "../../src/apply/result.js";
import { settleResults, unreadableProjects } from "../../src/apply/settle.js";
import type { ActionResult, ActionResultStatus } from "../../src/apply/types.js";
import type { Project } from "../../src/contract/resources.js";
import { NO_ITEMS } from "../../src/plan/summary.js";
import type { Action, ActionKind, ActionStatus, Plan, ProjectPlan } from "../../src/plan/types.js";

const AT = "2026-11-25T10:00:00.000Z";

function action(
  address: string,
  kind: ActionKind,
  status: ActionStatus,
  dependsOn: string[] = [],
  body: unknown = {},
): Action {
  return {
    id: `${address}.${kind}`,
    address,
    project_id: `id-${address}`,
    kind,
    status,
    request: {
      method: "POST",
      path: `/projects/id-${address}/${kind}`,
      body,
      idempotency_key: status === "planned" ? `cc1-${address}-${kind}-key-0000000000` : null,
    },
    depends_on: dependsOn,
    before: "draft",
    after: "awaiting_test",
    reason: "",
    ...(status === "blocked" ? { block: { reason: "drifted", fix: "", codes: ["plan.drift"] } } : {}),
    ...(status === "deferred" ? { waits_for: "the test approval" } : {}),
  };
}

const NO_SENDS = {
  projects: 0,
  not_estimated: 0,
  recipients: 0,
  sms_segments: 0,
  mms_messages: 0,
  estimated_cost_cents: 0,
};

function plan(actions: Action[], unreadable: string[] = []): Plan {
  const addresses = [...new Set([...actions.map((a) => a.address), ...unreadable])];
  const projects: ProjectPlan[] = addresses.map((address) => ({
    address,
    file: "f.yaml",
    project_id: `id-${address}`,
    name: address,
    desired: "scheduled",
    live: unreadable.includes(address) ? null : { status: "draft", updated_at: AT },
    drift: [],
    actions: actions.filter((a) => a.address === address),
    estimate: null,
    audience: null,
    schedule: null,
    sends: false,
    guard: null,
    diagnostics: unreadable.includes(address)
      ? [{ severity: "error", code: "plan.project-not-found", message: `${address}: not found` }]
      : [],
    notes: [],
  }));
  return {
    format_version: 3,
    tool_version: "test",
    created_at: AT,
    base_url: "http://x/v1",
    files: [],
    targets: [],
    excludes: [],
    policy: null,
    projects,
    diagnostics: [],
    requests: { total: 0, by_endpoint: {}, naive: 0 },
    summary: {
      ...NO_ITEMS,
      projects: 0,
      planned: 0,
      deferred: 0,
      blocked: 0,
      drifted: 0,
      errors: 0,
      warnings: 0,
    },
    totals: { overall: NO_SENDS, by_organization: [] },
  };
}

function result(a: Action, status: ActionResultStatus): ActionResult {
  return { ...unsentResult(a, status, ""), attempts: 1, idempotency_key: a.request.idempotency_key };
}

describe("decideRound", () => {
  const test1 = action("a", "test", "planned");
  const schedule1 = action("a", "schedule", "deferred", ["a.test"]);
  const chained = action("b", "test", "deferred", ["a.schedule"]);
  const cases: {
    name: string;
    plan: Plan;
    results?: ActionResult[];
    waiting?: boolean;
    reviewed?: Plan;
    send: string[];
    verdicts: Record<string, string>;
    next: "round" | "wait" | "done";
  }[] = [
    {
      name: "a planned action with no dependency is sent; its dependants are pending or deferred",
      plan: plan([test1, schedule1, chained]),
      send: ["a.test"],
      verdicts: { "a.test": "send", "a.schedule": "pending", "b.test": "pending" },
      next: "round",
    },
    {
      name: "approved (planned now) after the test was done: the schedule goes; the chain waits for it",
      plan: plan([action("a", "schedule", "planned"), action("b", "test", "planned", ["a.schedule"])]),
      send: ["a.schedule"],
      verdicts: { "a.schedule": "send", "b.test": "pending" },
      next: "round",
    },
    {
      name: "a dependency done in this run lets its dependant go",
      plan: plan([action("a", "schedule", "planned"), action("b", "test", "planned", ["a.schedule"])]),
      results: [result(action("a", "schedule", "planned"), "done")],
      send: ["b.test"],
      verdicts: { "a.schedule": "sent", "b.test": "send" },
      next: "round",
    },
    {
      name: "a dependency failed or unknown skips its dependants, never resent",
      plan: plan([test1, action("a", "schedule", "planned", ["a.test"])]),
      results: [result(test1, "unknown")],
      send: [],
      verdicts: { "a.test": "sent", "a.schedule": "settle:skipped" },
      next: "done",
    },
    {
      name: "awaiting approval without --wait-for-approval: deferred, the run ends",
      plan: plan([action("a", "schedule", "deferred"), chained]),
      send: [],
      verdicts: { "a.schedule": "settle:deferred", "b.test": "settle:deferred" },
      next: "done",
    },
    {
      name: "awaiting approval with --wait-for-approval: the run waits",
      plan: plan([action("a", "schedule", "deferred"), chained]),
      waiting: true,
      send: [],
      verdicts: { "a.schedule": "wait", "b.test": "pending" },
      next: "wait",
    },
    {
      name: "blocked (a dashboard edit re-judged as drift) is never sent",
      plan: plan([action("a", "schedule", "blocked")]),
      send: [],
      verdicts: { "a.schedule": "settle:blocked" },
      next: "done",
    },
    {
      name: "an action the reviewed plan does not hold is not sent",
      plan: plan([action("c", "pause", "planned")]),
      reviewed: plan([]),
      send: [],
      verdicts: { "c.pause": "settle:blocked" },
      next: "done",
    },
  ];
  for (const c of cases)
    test(c.name, () => {
      const d = decideRound({
        plan: c.plan,
        results: new Map((c.results ?? []).map((r) => [r.id, r])),
        reviewed: c.reviewed ?? c.plan,
        exact: false,
        waitingAllowed: c.waiting ?? false,
      });
      expect(d.send.map((a) => a.id)).toEqual(c.send);
      const shown = Object.fromEntries(
        [...d.verdicts].map(([id, v]) => [id, v.kind === "settle" ? `settle:${v.status}` : v.kind]),
      );
      expect(shown).toEqual(c.verdicts);
      expect(d.next).toBe(c.next);
    });

  test("the --wait-for-approval deadline passed: still deferred, said not approved within the wait", () => {
    const reasonOf = (waitEnded: boolean) => {
      const v = decideRound({
        plan: plan([action("a", "schedule", "deferred")]),
        results: new Map(),
        reviewed: plan([action("a", "schedule", "deferred")]),
        exact: false,
        waitingAllowed: false,
        waitEnded,
      }).verdicts.get("a.schedule");
      return v?.kind === "settle" ? `${v.status}: ${v.reason}` : v?.kind;
    };
    expect(reasonOf(true)).toMatch(/^deferred: waits for .*: not approved within --wait-for-approval$/);
    expect(reasonOf(false)).not.toContain("not approved");
  });

  test("a saved plan: a re-judged action that is not the reviewed one is refused, not sent", () => {
    const reviewed = plan([action("a", "test", "planned", [], { test_contacts: ["+15035550150"] })]);
    const fresh = plan([action("a", "test", "planned", [], { test_contacts: ["+15035550199"] })]);
    const d = decideRound({ plan: fresh, results: new Map(), reviewed, exact: true, waitingAllowed: false });
    expect(d.send).toEqual([]);
    expect(d.refuse.map((r) => r.diagnostic.code)).toEqual(["apply.plan-differs"]);
  });
});

describe("settleResults", () => {
  const t = action("a", "test", "planned");
  test("an unknown outcome seen to have taken effect on a later read is done", () => {
    const last = plan([], []);
    const [r] = settleResults({
      order: [t.id],
      seen: new Map([[t.id, t]]),
      results: new Map([[t.id, result(t, "unknown")]]),
      last: { ...last, projects: [{ ...plan([t]).projects[0], actions: [] } as ProjectPlan] },
      verdicts: new Map(),
      readAfterSend: new Set([t.project_id]),
      interrupted: false,
    });
    expect(r?.status).toBe("done");
    expect(r?.resolution).toContain("re-read later in this run");
  });
  test("an unknown outcome not re-read stays unknown", () => {
    const [r] = settleResults({
      order: [t.id],
      seen: new Map([[t.id, t]]),
      results: new Map([[t.id, result(t, "unknown")]]),
      last: plan([t]),
      verdicts: new Map(),
      readAfterSend: new Set([t.project_id]),
      interrupted: false,
    });
    expect(r?.status).toBe("unknown");
  });
  test("an action gone from the last judgement without a send: nothing to do, or the project is unreadable", () => {
    const gone = settleResults({
      order: [t.id],
      seen: new Map([[t.id, t]]),
      results: new Map(),
      last: { ...plan([t]), projects: [{ ...plan([t]).projects[0], actions: [] } as ProjectPlan] },
      verdicts: new Map(),
      readAfterSend: new Set(),
      interrupted: false,
    });
    expect(gone[0]?.status).toBe("replayed");
    expect(gone[0]?.attempts).toBe(0);
    const unreadable = settleResults({
      order: [t.id],
      seen: new Map([[t.id, t]]),
      results: new Map(),
      last: plan([], ["a"]),
      verdicts: new Map(),
      readAfterSend: new Set(),
      interrupted: false,
    });
    expect(unreadable[0]?.status).toBe("skipped");
    expect(unreadableProjects(plan([], ["a"])).map((u) => u.address)).toEqual(["a"]);
  });
});

describe("the basis", () => {
  const held = { status: "ready", updated_at: "2026-11-25T10:00:00.000Z" } as Project;
  test.each([
    [{ status: "ready", updated_at: "2026-11-25T10:00:00Z" }, true],
    [{ status: "ready", updated_at: "2026-11-25T10:00:01Z" }, false],
    [{ status: "scheduled", updated_at: "2026-11-25T10:00:00Z" }, false],
    [{ status: "ready", updated_at: "2026-11-25T04:00:00-06:00" }, true],
    [{ status: "ready", updated_at: "2026-11-25T10:00:00.001Z" }, false],
    [{ status: "ready", updated_at: "not a time" }, false],
  ])("a stats row %j confirms the held detail: %s", (row, expected) => {
    expect(confirms(held, row)).toBe(expected);
  });
  test("a held detail whose updated_at cannot be read is never confirmed, not even by the same text", () => {
    const odd = { status: "ready", updated_at: "2026-11-25 10:00" } as Project;
    expect(confirms(odd, { status: "ready", updated_at: "2026-11-25 10:00" })).toBe(false);
  });
  test("read: projects with work left, unknown outcomes, and those held back", () => {
    const t = action("a", "test", "planned");
    const p = plan([t, action("b", "pause", "blocked"), action("c", "schedule", "deferred")]);
    expect(projectsToRead(p, new Map(), new Set())).toEqual(["id-a", "id-c"]);
    expect(projectsToRead(p, new Map([[t.id, result(t, "done")]]), new Set(["id-z"]))).toEqual([
      "id-c",
      "id-z",
    ]);
    expect(projectsToRead(p, new Map([[t.id, result(t, "unknown")]]), new Set())).toEqual(["id-c", "id-a"]);
  });
});
