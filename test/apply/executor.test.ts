/** The executor against the sandbox over real HTTP, on the sandbox's virtual clock. */
import { afterEach, describe, expect, test } from "vitest";
import { admin } from "../sandbox/helpers.js";
import {
  apply,
  effectCounts,
  effects,
  plan,
  requestLog,
  session,
  type TestBed,
  testBed,
  virtual,
} from "./helpers.js";

let bed: TestBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function freshPlan(b: TestBed) {
  const s = await session(b);
  try {
    return await plan(b, s);
  } finally {
    await s.close();
  }
}

describe("executePlan", () => {
  test("applies every action once; a second plan has nothing left but the deferred schedule", async () => {
    bed = await testBed({ test: 3, schedule: 3, pause: 3, "test-then-schedule": 1 });
    const { plan: p } = await freshPlan(bed);
    const { result, events } = await apply(bed, p);
    expect(result.summary).toMatchObject({ done: 10, failed: 0, deferred: 1, skipped: 0, not_started: 0 });
    expect(result.requests.rate_limited_429).toBe(0);
    expect(result.actions.find((a) => a.kind === "test")?.test_messages).toHaveLength(2);
    expect(result.actions.find((a) => a.kind === "schedule" && a.status === "done")?.schedule?.utc_time).toBe(
      "2026-12-07T16:00:00Z",
    );
    const counts = effectCounts(await effects(bed.sb));
    for (const project of bed.world.projects)
      for (const kind of project.role === "pause"
        ? ["pause"]
        : project.role === "schedule"
          ? ["schedule"]
          : ["test"])
        expect(counts.get(`${project.id}:${kind}`), `${project.address} ${kind}`).toBe(1);
    const again = (await freshPlan(bed)).plan;
    expect(again.summary).toMatchObject({ planned: 0, deferred: 1, blocked: 0 });
    expect(again.projects.flatMap((x) => x.actions).every((a) => a.status === "deferred")).toBe(true);
    expect(JSON.stringify(events)).not.toContain("pc_live_");
  });

  test("commit-then-fail: the unknown outcome is resolved by re-reading, and nothing is sent twice", async () => {
    bed = await testBed({ test: 1 }, { faults: "POST /projects/{id}/test: commit-then-fail(500) n=1" });
    const { plan: p } = await freshPlan(bed);
    const { result } = await apply(bed, p);
    const action = result.actions[0];
    expect(action?.status).toBe("done");
    expect(action?.resolution).toContain("took effect");
    expect(action?.attempts).toBe(1);
    expect((await effects(bed.sb)).filter((e) => e.kind === "test")).toHaveLength(1);
  });

  test.each([
    ["a 500 before the commit", "status(500)"],
    ["a dropped connection", "reset"],
  ])(
    "%s: re-read shows no transition, the same key is sent again, and it acts once",
    async (_name, fault) => {
      bed = await testBed({ schedule: 1 }, { faults: `POST /projects/{id}/schedule: ${fault} n=1` });
      const { plan: p } = await freshPlan(bed);
      const { result } = await apply(bed, p);
      expect(result.actions[0]).toMatchObject({ status: "done", attempts: 2 });
      expect(result.actions[0]?.resolution).toContain("did not take effect");
      const posts = (await requestLog(bed.sb)).filter((r) => r.method === "POST");
      expect(posts).toHaveLength(2);
      const keys = new Set(posts.map((r) => (r as unknown as { idempotency_key: string }).idempotency_key));
      expect([...keys]).toEqual([p.projects[0]?.actions[0]?.request.idempotency_key]);
      expect((await effects(bed.sb)).filter((e) => e.kind === "schedule")).toHaveLength(1);
    },
  );

  test("a 4xx fails the action, its dependents are skipped, independent actions go on", async () => {
    bed = await testBed({ "test-then-schedule": 1, pause: 1 });
    const { plan: p } = await freshPlan(bed);
    const target = bed.world.projects.find((x) => x.role === "test-then-schedule");
    await admin(bed.sb, "PATCH", `/projects/${target?.id}`, { status: "completed" });
    const { result } = await apply(bed, p, { waitForApproval: 60_000 });
    const byId = new Map(result.actions.map((a) => [a.id, a]));
    expect(byId.get("test-then-schedule-1.test")).toMatchObject({ status: "failed", error: { status: 400 } });
    expect(byId.get("test-then-schedule-1.schedule")?.status).toBe("skipped");
    expect(byId.get("pause-1.pause")?.status).toBe("done");
  });

  test("Ctrl-C: requests in flight finish, nothing new starts", async () => {
    bed = await testBed({ test: 6 });
    const { plan: p } = await freshPlan(bed);
    const controller = new AbortController();
    let sends = 0;
    const { result } = await apply(bed, p, {
      parallelism: 2,
      signal: controller.signal,
      onEvent: (e) => {
        // Abort once two requests are in flight.
        if (e.type === "send" && ++sends === 2) controller.abort();
      },
    });
    expect(result.interrupted).toBe(true);
    expect(result.summary.done).toBe(2);
    expect(result.summary.not_started).toBe(4);
    expect((await effects(bed.sb)).filter((e) => e.kind === "test")).toHaveLength(2);
  });

  test("two runs of the same plan at once: every effect happens once (the other run replays)", async () => {
    bed = await testBed({ test: 4, schedule: 4, pause: 4 }, { faults: "*: latency(3ms, real)" });
    const { plan: p } = await freshPlan(bed);
    const [a, b] = await Promise.all([apply(bed, p), apply(bed, p)]);
    for (const [i, action] of p.projects.flatMap((x) => x.actions).entries()) {
      const statuses = [a.result.actions[i]?.status, b.result.actions[i]?.status];
      expect(
        statuses.every((s) => s === "done" || s === "replayed"),
        `${action.id}: ${statuses}`,
      ).toBe(true);
    }
    const counts = effectCounts(await effects(bed.sb));
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(counts.size).toBe(12);
  });

  test("--wait-for-approval: polls until the test is approved, then schedules with a key from that state", async () => {
    bed = await testBed({ "test-then-schedule": 2 });
    const { plan: p, organizationId } = await freshPlan(bed);
    const { clock, sleep } = virtual(bed.sb);
    let polls = 0;
    const approvingSleep = async (ms: number) => {
      await sleep(ms);
      if (++polls === 3)
        for (const x of bed?.world.projects ?? [])
          if (bed) await admin(bed.sb, "POST", `/projects/${x.id}/approve`);
    };
    const { result, events } = await apply(bed, p, {
      waitForApproval: 10 * 60_000,
      sleep: approvingSleep,
      clock,
      organizationId,
    });
    expect(result.summary).toMatchObject({ done: 4, deferred: 0, failed: 0 });
    const schedule = result.actions.find((a) => a.kind === "schedule");
    expect(schedule?.idempotency_key).toMatch(/^cc1-/);
    expect(schedule?.resolution).toContain("approved");
    expect(events.some((e) => e.type === "waiting")).toBe(true);
    expect((await effects(bed.sb)).filter((e) => e.kind === "schedule")).toHaveLength(2);
  });

  test("--wait-for-approval without an approval: the schedule stays deferred after the wait", async () => {
    bed = await testBed({ "test-then-schedule": 1 });
    const { plan: p } = await freshPlan(bed);
    const { result } = await apply(bed, p, { waitForApproval: 60_000 });
    expect(result.summary).toMatchObject({ done: 1, deferred: 1 });
    expect(result.actions[1]?.reason).toContain("not approved");
  });
});
