/**
 * `campaignctl watch` end to end against a sandbox started at a fixed instant, on its virtual clock
 * (no real sleeps): several projects send, one project's failures are raised through the
 * simulation's per-project knob, and watch pauses exactly that project once (one pause effect,
 * its reason naming the guard and the figures) while the others complete; one stats page per poll,
 * within the rate budget counted from the sandbox's request log; a restart does not watch, pause
 * or report the paused project again.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GUARD_PAUSE_REASON_PREFIX } from "../../src/contract/guard-reason.js";
import { RATE_LIMITS } from "../../src/contract/limits.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin } from "../sandbox/helpers.js";
import {
  busiestMinute,
  clearRequests,
  effects,
  type Line,
  type LoggedRequest,
  liveProject,
  requestLog,
  runWatch,
  type WatchRun,
} from "./harness.js";
import { campaignFile, START, type WatchWorld, watchWorld, workDir } from "./world.js";

const GUARD = { max_failure_rate: 0.2, min_sample: 10 };

let sb: SandboxHandle;
let world: WatchWorld;
let cwd: string;
let run: WatchRun;
let log: LoggedRequest[];
let failing: string;

beforeAll(async () => {
  world = watchWorld(4);
  failing = world.senders[1] as string;
  sb = await startSandbox({ fixture: world.fixture, timeScale: 0, rateLimits: true });
  expect(sb.clock.now().toISOString()).toBe(START.toISOString());
  await admin(sb, "PATCH", "/simulation", {
    messages_per_batch: 1,
    failure_rate: 0,
    reply_rate: 0,
    project_failure_rates: { [failing]: 0.6 },
  });
  const [a, b, c, d] = world.senders as [string, string, string, string];
  cwd = workDir({
    "campaign.yaml": campaignFile(
      { alpha: a, bravo: b, charlie: c, delta: d, earlier: world.pausedBefore, done: world.completed },
      GUARD,
    ),
  });
  await clearRequests(sb);
  run = await runWatch(sb, cwd, [], { flags: { json: true, untilDone: true, interval: 5000 } });
  log = await requestLog(sb);
}, 120_000);

afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

const ofType = (type: string): Line[] => run.lines.filter((l: Line) => l.type === type);

describe("watch --until-done --json", () => {
  test("exits 2: a guard tripped and its project was paused", () => {
    expect(run.stderr).not.toMatch(/error/);
    expect(run.code).toBe(2);
    expect(run.lines[0].type).toBe("start");
    expect(run.lines.at(-1)).toMatchObject({
      type: "stop",
      reason: "done",
      tripped: 1,
      paused: 1,
      errors: 0,
    });
  });

  test("starts with every project of the files, watching only those sending", () => {
    const start = run.lines[0];
    const sending = Object.fromEntries(start.projects.map((p: Line) => [p.address, p.sending]));
    expect(sending).toEqual({
      alpha: true,
      bravo: true,
      charlie: true,
      delta: true,
      earlier: false,
      done: false,
    });
    // Paused before the run with 4 of 10 failed: above its guard, but not watched: nothing done.
    expect(start.projects.find((p: Line) => p.address === "earlier")).toMatchObject({
      status: "paused",
      judged: "above",
    });
    expect(start.projects.find((p: Line) => p.address === "alpha").guard).toEqual({
      max_failure_rate: 0.2,
      max_opt_out_rate: null,
      min_sample: 10,
    });
  });

  test("pauses exactly the failing project, once, with a reason naming the guard and the figures", async () => {
    const trips = ofType("tripped");
    expect(trips).toHaveLength(1);
    const trip = trips[0];
    expect(trip.project.id).toBe(failing);
    expect(trip.guard).toBe("failure_rate");
    expect(trip.count / trip.of).toBeGreaterThan(0.2);
    expect(trip.of).toBeGreaterThanOrEqual(10);
    const pct = (trip.count / trip.of) * 100;
    expect(trip.reason).toMatch(/^guard: failure rate \d+(\.\d+)?% > 20% \(\d+ of \d+ sent\)$/);
    expect(trip.reason).toContain(`(${trip.count} of ${trip.of} sent)`);
    expect(trip.reason).toContain(`${pct.toFixed(1)}%`);
    expect(trip.pause).toMatchObject({
      outcome: "paused",
      status_after: "paused",
      replayed: false,
      attempts: 1,
    });

    const pauses = await effects(sb, "pause");
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toMatchObject({
      project_id: failing,
      changed: true,
      idempotency_key: trip.pause.idempotency_key,
    });
    const live = await liveProject(sb, failing);
    expect(live.status).toBe("paused");
    expect(live.pause_reason).toBe(trip.reason);
    expect(live.pause_reason?.startsWith(GUARD_PAUSE_REASON_PREFIX)).toBe(true);
  });

  test("the others complete, and are reported until they do", async () => {
    for (const id of world.senders.filter((s) => s !== failing)) {
      expect((await liveProject(sb, id)).status).toBe("completed");
      const last = ofType("progress")
        .filter((l: Line) => l.project.id === id)
        .at(-1);
      expect(last.project).toMatchObject({ status: "completed", sent: 38, recipients: 38, failed: 0 });
      expect(last.project.judged).toBe("within");
    }
    // Projects that were not sending are never reported.
    const reported = new Set(ofType("progress").map((l: Line) => l.project.id));
    expect(reported.has(world.pausedBefore)).toBe(false);
    expect(reported.has(world.completed)).toBe(false);
  });

  test("reads one stats page per poll and reads no project by id but the pause's two", () => {
    const polls = ofType("poll");
    expect(polls.length).toBeGreaterThan(5);
    for (const p of polls) expect([p.stats_pages, p.projects_read_by_id]).toEqual([1, 0]);
    const routes = (route: string) => log.filter((r) => `${r.method} ${r.route}` === route).length;
    expect(routes("GET /projects/stats")).toBe(polls.length);
    expect(routes("GET /organizations")).toBe(1);
    expect(routes("GET /projects/{id}")).toBe(2);
    expect(routes("POST /projects/{id}/pause")).toBe(1);
    expect(log.length).toBe(polls.length + 1 + 2 + 1);
    // The lines account for every request.
    expect(polls.reduce((n: number, p: Line) => n + p.requests, 0)).toBe(log.length);
    expect(run.lines.at(-1).requests).toBe(log.length);
  });

  test("stays within the rate budget: well under 100 requests in any minute", () => {
    expect(log.every((r) => r.status !== 429)).toBe(true);
    const busiest = busiestMinute(log);
    expect(busiest).toBeLessThanOrEqual(RATE_LIMITS["read-write"]);
    // 5-second polls: 12 pages a minute, plus the organizations read and the pause's three requests.
    expect(busiest).toBeLessThanOrEqual(12 + 1 + 3);
    const polls = ofType("poll");
    for (const p of polls.slice(0, -1)) expect(p.next_poll_ms).toBe(5000);
    expect(polls.at(-1).next_poll_ms).toBeNull();
  });

  test("a restart does not watch, pause or report the paused project again", async () => {
    await clearRequests(sb);
    const again = await runWatch(sb, cwd, [], { flags: { json: true, once: true, interval: 5000 } });
    expect(again.code).toBe(0);
    expect(again.lines.filter((l: Line) => l.type === "tripped")).toEqual([]);
    const start = again.lines[0];
    expect(start.projects.find((p: Line) => p.id === failing)).toMatchObject({
      status: "paused",
      sending: false,
    });
    expect(again.lines.filter((l: Line) => l.type === "progress")).toEqual([]);
    expect(
      again.lines.some((l: Line) => l.type === "diagnostic" && l.diagnostic.code === "watch.nothing-sending"),
    ).toBe(true);
    expect(await effects(sb, "pause")).toHaveLength(1);
    const relog = await requestLog(sb);
    expect(relog.map((r) => `${r.method} ${r.route}`).sort()).toEqual([
      "GET /organizations",
      "GET /projects/stats",
    ]);
    expect(again.lines.at(-1)).toMatchObject({ type: "stop", reason: "once", polls: 1, tripped: 0 });
  });
});
