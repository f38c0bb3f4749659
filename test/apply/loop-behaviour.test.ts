/**
 * Behaviours of apply pinned through the reconciliation loop (`reconcile`, as `apply` runs it),
 * against the sandbox over real HTTP on its virtual clock; effects asserted from the sandbox's own
 * logs (`/_sandbox/effects`, `/_sandbox/test-messages`, `/_sandbox/requests`). Ported from the tests
 * of the single-pass executor this loop replaced.
 */
import { expect, test } from "vitest";
import { idempotencyKey } from "../../src/api/idempotency-key.js";
import type { ApplyEvent } from "../../src/apply/events.js";
import { admin } from "../sandbox/helpers.js";
import {
  applyLoop,
  bedsClosedAfterEach,
  effectCounts,
  effects,
  planFresh,
  requestLog,
  type TestBed,
  testMessages,
} from "./helpers.js";

const openBed = bedsClosedAfterEach();

const posts = async (b: TestBed) =>
  (await requestLog(b.sb)).filter((r) => r.method === "POST") as unknown as {
    path: string;
    status: number;
    idempotency_key: string | null;
  }[];

test("every action once; a second plan has nothing left but the deferred schedule", async () => {
  const bed = await openBed({ test: 3, schedule: 3, pause: 3, "test-then-schedule": 1 });
  const { result, events } = await applyLoop(bed);
  expect(result.summary).toMatchObject({ done: 10, failed: 0, deferred: 1, skipped: 0, not_started: 0 });
  expect(result.requests.rate_limited_429).toBe(0);
  const test = result.actions.find((a) => a.kind === "test");
  expect(test?.test_messages).toHaveLength(2);
  const schedule = result.actions.find((a) => a.kind === "schedule" && a.status === "done");
  expect(schedule?.schedule?.utc_time).toBe("2026-12-07T16:00:00Z");

  const counts = effectCounts(await effects(bed.sb));
  for (const project of bed.world.projects) {
    const kind = project.role === "pause" ? "pause" : project.role === "schedule" ? "schedule" : "test";
    expect(counts.get(`${project.id}:${kind}`), `${project.address} ${kind}`).toBe(1);
  }
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  // Two test contacts for each of the four projects tested.
  expect(await testMessages(bed.sb)).toHaveLength(8);

  const again = (await planFresh(bed)).plan;
  expect(again.summary).toMatchObject({ planned: 0, deferred: 1, blocked: 0 });
  expect(again.projects.flatMap((x) => x.actions).every((a) => a.status === "deferred")).toBe(true);
  expect(JSON.stringify(events)).not.toContain("pc_live_");
});

test("a 4xx fails the action, its dependents are skipped, independent actions go on", async () => {
  const bed = await openBed({ "test-then-schedule": 1, pause: 1 });
  const target = bed.world.projects.find((x) => x.role === "test-then-schedule");
  const paused = bed.world.projects.find((x) => x.role === "pause");
  // The API refuses the test (a 400 the planner could not foresee); approvals would be awaited.
  await admin(bed.sb, "POST", "/faults", { spec: "POST /projects/{id}/test: status(400) n=1" });
  const { result } = await applyLoop(bed, { waitForApproval: 60_000 });
  const byId = new Map(result.actions.map((a) => [a.id, a]));
  expect(byId.get("test-then-schedule-1.test")).toMatchObject({ status: "failed", error: { status: 400 } });
  expect(byId.get("test-then-schedule-1.schedule")).toMatchObject({ status: "skipped", attempts: 0 });
  expect(byId.get("test-then-schedule-1.schedule")?.reason).toContain("test-then-schedule-1.test");
  expect(byId.get("pause-1.pause")?.status).toBe("done");

  const counts = effectCounts(await effects(bed.sb));
  expect(counts.get(`${target?.id}:test`)).toBeUndefined();
  expect(counts.get(`${target?.id}:schedule`)).toBeUndefined();
  expect(counts.get(`${paused?.id}:pause`)).toBe(1);
  expect(await testMessages(bed.sb)).toHaveLength(0);
  // The failed test was sent once, the pause once, and the skipped schedule never.
  const sent = (await posts(bed)).map((r) => `${r.path.split("/").pop()} ${r.status}`).sort();
  expect(sent).toEqual(["pause 200", "test 400"]);
});

test("commit-then-fail: the unknown outcome is resolved by re-reading, and nothing is sent twice", async () => {
  const bed = await openBed({ test: 1 }, { faults: "POST /projects/{id}/test: commit-then-fail(500) n=1" });
  const { result } = await applyLoop(bed);
  const action = result.actions[0];
  expect(action?.status).toBe("done");
  expect(action?.resolution).toContain("took effect");
  expect(action?.attempts).toBe(1);
  expect(await posts(bed)).toHaveLength(1);
  expect((await effects(bed.sb)).filter((e) => e.kind === "test")).toHaveLength(1);
  expect(await testMessages(bed.sb)).toHaveLength(2);
});

test.each([
  ["a 500 before the commit", "status(500)"],
  ["a dropped connection", "reset"],
])("%s: re-read shows no transition, the same key is sent again, and it acts once", async (_name, fault) => {
  const bed = await openBed({ schedule: 1 }, { faults: `POST /projects/{id}/schedule: ${fault} n=1` });
  const planned = await planFresh(bed);
  const { result } = await applyLoop(bed, { planned });
  expect(result.actions[0]).toMatchObject({ status: "done", attempts: 2 });
  // The resolution tells the story in order and ends with how the action really ended.
  expect(result.actions[0]?.resolution).toMatch(
    /^after send 1: re-read: .*, unchanged; the schedule had not taken effect; send 2: accepted; the schedule took effect$/,
  );
  const sent = await posts(bed);
  expect(sent).toHaveLength(2);
  expect([...new Set(sent.map((r) => r.idempotency_key))]).toEqual([
    planned.plan.projects[0]?.actions[0]?.request.idempotency_key,
  ]);
  expect((await effects(bed.sb)).filter((e) => e.kind === "schedule" && e.changed)).toHaveLength(1);
});

test("Ctrl-C: requests in flight finish, nothing new starts", async () => {
  const bed = await openBed({ test: 6 });
  const controller = new AbortController();
  const events: ApplyEvent[] = [];
  let sends = 0;
  const { result } = await applyLoop(bed, {
    parallelism: 2,
    signal: controller.signal,
    onEvent: (e) => {
      events.push(e);
      // Abort once two requests are in flight.
      if (e.type === "send" && ++sends === 2) controller.abort();
    },
  });
  expect(result.interrupted).toBe(true);
  expect(result.summary).toMatchObject({ done: 2, not_started: 4 });
  expect(events.find((e) => e.type === "interrupt")).toMatchObject({ in_flight: 2 });
  expect(await posts(bed)).toHaveLength(2);
  expect((await effects(bed.sb)).filter((e) => e.kind === "test")).toHaveLength(2);
  expect(await testMessages(bed.sb)).toHaveLength(4);
});

test("two runs of the same plan at once: every effect happens once (the other run replays)", async () => {
  const bed = await openBed({ test: 4, schedule: 4, pause: 4 }, { faults: "*: latency(3ms, real)" });
  const planned = await planFresh(bed);
  const [a, b] = await Promise.all([applyLoop(bed, { planned }), applyLoop(bed, { planned })]);
  for (const action of planned.plan.projects.flatMap((x) => x.actions)) {
    const statuses = [a, b].map((run) => run.result.actions.find((r) => r.id === action.id)?.status);
    expect(
      statuses.every((s) => s === "done" || s === "replayed"),
      `${action.id}: ${statuses}`,
    ).toBe(true);
  }
  const counts = effectCounts(await effects(bed.sb));
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  expect(counts.size).toBe(12);
  expect(await testMessages(bed.sb)).toHaveLength(8);
});

test("--wait-for-approval: polls until the test is approved, then schedules with a key from that state", async () => {
  const bed = await openBed({ "test-then-schedule": 2 });
  const b = bed;
  const planned = await planFresh(b);
  const approvedAt = new Map<string, string>();
  let polls = 0;
  const { result, events } = await applyLoop(b, {
    planned,
    waitForApproval: 10 * 60_000,
    sleep: async (ms) => {
      await b.sb.clock.advance(ms);
      if (++polls !== 3) return;
      for (const x of b.world.projects) {
        await admin(b.sb, "POST", `/projects/${x.id}/approve`);
        approvedAt.set(x.id, b.sb.store.world.projects[x.id]?.updated_at ?? "");
      }
    },
  });
  expect(polls).toBeGreaterThanOrEqual(3);
  expect(result.summary).toMatchObject({ done: 4, deferred: 0, failed: 0 });
  expect(events.some((e) => e.type === "waiting")).toBe(true);
  const log = await effects(b.sb);
  const counts = effectCounts(log);
  for (const x of b.world.projects) {
    expect(counts.get(`${x.id}:test`), x.address).toBe(1);
    expect(counts.get(`${x.id}:schedule`), x.address).toBe(1);
    // The schedule's key rests on the state the approval left (`ready` at its `updated_at`).
    const deferred = planned.plan.projects
      .flatMap((p) => p.actions)
      .find((a) => a.id === `${x.address}.schedule`);
    expect(deferred?.status).toBe("deferred");
    const expected = idempotencyKey({
      org: b.sb.store.world.projects[x.id]?.organization_id ?? "",
      project_id: x.id,
      action: "schedule",
      body: deferred?.request.body,
      based_on: approvedAt.get(x.id) ?? null,
    });
    expect(log.find((e) => e.project_id === x.id && e.kind === "schedule")?.idempotency_key).toBe(expected);
    expect(result.actions.find((a) => a.id === `${x.address}.schedule`)?.idempotency_key).toBe(expected);
  }
});

test("--wait-for-approval without an approval: the schedule stays deferred after the wait", async () => {
  const bed = await openBed({ "test-then-schedule": 1 });
  const startMs = bed.sb.clock.nowMs();
  const { result, events } = await applyLoop(bed, { waitForApproval: 60_000 });
  expect(result.summary).toMatchObject({ done: 1, deferred: 1 });
  expect(result.actions[1]?.reason).toContain("not approved within --wait-for-approval");
  // It waited the whole minute, on the virtual clock, polling.
  expect(bed.sb.clock.nowMs() - startMs).toBeGreaterThanOrEqual(60_000);
  expect(events.filter((e) => e.type === "waiting").length).toBeGreaterThanOrEqual(2);
  const id = bed.world.projects[0]?.id;
  expect(effectCounts(await effects(bed.sb)).get(`${id}:schedule`)).toBeUndefined();
  expect(bed.sb.store.world.projects[id ?? ""]?.status).toBe("awaiting_test");
});
