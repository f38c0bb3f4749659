/**
 * `alreadyApplied` (issue 17 item 5): whether a saved plan's every action is in effect, judged on
 * the plan made again from the same files and fresh reads of a sandbox (over HTTP on loopback, its
 * virtual clock). A plan applied once is already applied; time passing (schedules going active and
 * completed) keeps it so; each way a project can move on, and each edit of the saved plan's
 * requests or keys, is not, with the reason named.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { type AlreadyApplied, alreadyApplied, SETTLED } from "../../src/apply/already-applied.js";
import { LIFECYCLE } from "../../src/plan/lifecycle.js";
import type { ActionKind, Plan } from "../../src/plan/types.js";
import { renderPlanJson } from "../../src/report/plan-json.js";
import { admin } from "../sandbox/helpers.js";
import { bedsClosedAfterEach, type Planned, planFresh, runApply, type TestBed, testBed } from "./helpers.js";

const openBed = bedsClosedAfterEach();

test("SETTLED: each kind's list holds the lifecycle's `to` and only statuses that prove the action", () => {
  for (const kind of Object.keys(LIFECYCLE) as ActionKind[]) {
    expect(SETTLED[kind]).toContain(LIFECYCLE[kind].to);
    for (const status of SETTLED[kind]) expect(LIFECYCLE[kind].proof).toContain(status);
  }
});

const ONE_OF_EACH = { test: 1, schedule: 1, pause: 1, "test-then-schedule": 1 } as const;

/**
 * A world with one project of each role, its plan saved and applied once (tests approved at once);
 * `open` makes the world (default: closed after the test).
 */
async function appliedOnce(
  open: typeof testBed = openBed,
): Promise<{ bed: TestBed; saved: Plan; id: (address: string) => string }> {
  const bed = await open(ONE_OF_EACH, { autoApproveTests: true });
  const { plan } = await planFresh(bed);
  const saved = JSON.parse(renderPlanJson(plan)) as Plan;
  writeFileSync(join(bed.world.dir, "plan.json"), renderPlanJson(plan));
  const first = await runApply(bed, ["plan.json"], { autoApprove: true });
  expect(first.code, first.stdout + first.stderr).toBe(0);
  const id = (address: string) => bed.world.projects.find((p) => p.address === address)?.id ?? "";
  return { bed, saved, id };
}

async function judgeNow(bed: TestBed, reviewed: Plan): Promise<AlreadyApplied> {
  return judgeAgainst(await planFresh(bed), reviewed);
}

function judgeAgainst(fresh: Planned, reviewed: Plan): AlreadyApplied {
  return alreadyApplied({ reviewed, fresh: fresh.plan, live: fresh.live, judge: fresh.judge });
}

/**
 * The world applied once that no test changes (the tests that edit only the saved plan), with its
 * fresh plan made once: `alreadyApplied` is pure, and the same world gives the same fresh plan.
 */
let unchanged: Promise<{ readonly bed: TestBed; readonly saved: Plan; readonly fresh: Planned }> | undefined;
const appliedUnchanged = () => {
  unchanged ??= (async () => {
    const { bed, saved } = await appliedOnce(testBed);
    return { bed, saved, fresh: await planFresh(bed) };
  })();
  return unchanged;
};
afterAll(async () => {
  if (unchanged !== undefined) await (await unchanged).bed.close();
});

const reasonsOf = (r: AlreadyApplied) => (r.kind === "not-applied" ? r.reasons.join("\n") : "");

describe("alreadyApplied", () => {
  test("a plan applied once: every action replayed, none sent, the live status and schedule shown", async () => {
    const { saved, fresh } = await appliedUnchanged();
    const found = judgeAgainst(fresh, saved);
    expect(found.kind, reasonsOf(found)).toBe("applied");
    if (found.kind !== "applied") return;
    expect(found.actions.map((a) => a.id)).toEqual(saved.projects.flatMap((p) => p.actions.map((a) => a.id)));
    expect(found.actions.map((a) => [a.id, a.status, a.status_after])).toEqual([
      ["test-1.test", "replayed", "ready"],
      ["schedule-1.schedule", "replayed", "scheduled"],
      ["pause-1.pause", "replayed", "paused"],
      ["test-then-schedule-1.test", "replayed", "scheduled"],
      ["test-then-schedule-1.schedule", "replayed", "scheduled"],
    ]);
    for (const a of found.actions) {
      expect(a.attempts).toBe(0);
      expect(a.idempotency_key).toBeNull();
      expect(a.reason).toMatch(/^already applied: .*; nothing sent$/);
      expect(a.schedule === null).toBe(a.kind !== "schedule");
    }
  });

  test("time passing (the schedules go active, then complete) keeps it applied", async () => {
    const { bed, saved } = await appliedOnce();
    await bed.sb.clock.advance(8 * 24 * 3_600_000);
    const found = await judgeNow(bed, saved);
    expect(found.kind, reasonsOf(found)).toBe("applied");
    const after = found.kind === "applied" ? found.actions.map((a) => a.status_after) : [];
    expect(after.some((s) => s === "active" || s === "completed")).toBe(true);
  });

  const moves: readonly {
    readonly name: string;
    readonly address: string;
    readonly edit: Record<string, unknown>;
    readonly reason: string;
  }[] = [
    {
      name: "a paused project started again",
      address: "pause-1",
      edit: { status: "scheduled" },
      reason: "pause-1: live status scheduled is not where its pause leads",
    },
    {
      name: "a scheduled project paused",
      address: "schedule-1",
      edit: { status: "paused" },
      reason: "schedule-1: live status paused is not where its schedule leads",
    },
    {
      name: "a scheduled project rescheduled",
      address: "test-then-schedule-1",
      edit: { scheduled_at: "2026-12-09T21:00:00Z" },
      reason: "test-then-schedule-1.schedule: live scheduled_at is 2026-12-09T21:00:00.000Z",
    },
    {
      name: "the daily cap bypass turned on",
      address: "schedule-1",
      edit: { daily_cap_bypass: true },
      reason: "schedule-1.schedule: live daily_cap_bypass is true, reviewed false",
    },
    {
      name: "a tested project scheduled in the dashboard",
      address: "test-1",
      edit: {
        status: "scheduled",
        scheduled_at: "2026-12-09T21:00:00Z",
        scheduled_timezone: "America/Chicago",
      },
      reason: "test-1: live status scheduled is not where its test leads",
    },
    {
      name: "a tested project's message edited",
      address: "test-1",
      edit: { message_text: "Edited in the dashboard. Reply STOP to opt out." },
      reason: "test-1: its drift differs",
    },
  ];

  test.each(moves)("$name in the dashboard: not applied ($reason)", async ({ address, edit, reason }) => {
    const { bed, saved, id } = await appliedOnce();
    const res = await admin(bed.sb, "PATCH", `/projects/${id(address)}`, edit);
    expect(res.status).toBe(200);
    const found = await judgeNow(bed, saved);
    expect(found.kind).toBe("not-applied");
    expect(reasonsOf(found)).toContain(reason);
  });

  /** The saved plan document as JSON data, to edit in place. */
  interface Doc {
    projects: {
      address: string;
      live: { updated_at: string };
      actions: { id: string; request: { idempotency_key: string | null; body: Record<string, unknown> } }[];
    }[];
  }
  const request = (doc: Doc, actionId: string) => {
    const found = doc.projects.flatMap((p) => p.actions).find((a) => a.id === actionId);
    if (found === undefined) throw new Error(actionId);
    return found.request;
  };
  const edits: readonly {
    readonly name: string;
    readonly edit: (doc: Doc) => void;
    readonly reason: string;
  }[] = [
    {
      name: "a key edited",
      edit: (doc) => {
        request(doc, "test-1.test").idempotency_key = "cc1-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
      },
      reason: "as planned from its basis, test-1.test: request.idempotency_key differs",
    },
    {
      name: "a test contact edited",
      edit: (doc) => {
        request(doc, "test-1.test").body.test_contacts = [{ phone: "+15035550199" }];
      },
      reason: "as planned from its basis, test-1.test: request.body.test_contacts",
    },
    {
      name: "a schedule's time edited",
      edit: (doc) => {
        request(doc, "schedule-1.schedule").body.scheduled_at = "2026-12-09T10:00:00-06:00";
      },
      reason: "schedule-1.schedule: live scheduled_at is",
    },
    {
      name: "the basis it was planned from edited",
      edit: (doc) => {
        const p = doc.projects.find((x) => x.address === "pause-1");
        if (p !== undefined) p.live.updated_at = "2026-11-25T10:00:00.000Z";
      },
      reason: "as planned from its basis, pause-1.pause: request.idempotency_key differs",
    },
  ];

  test.each(edits)("the saved plan with $name: not applied", async ({ edit, reason }) => {
    const { saved, fresh } = await appliedUnchanged();
    const doc = structuredClone(saved);
    edit(doc as unknown as Doc);
    const found = judgeAgainst(fresh, doc);
    expect(found.kind).toBe("not-applied");
    expect(reasonsOf(found)).toContain(reason);
  });
});
