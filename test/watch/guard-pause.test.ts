/**
 * One try of a guard's pause through the real client against a sandbox (loopback, virtual clock):
 * the read before (a project no longer sending ends it, a failed read leaves it pending), the
 * Idempotency-Key of project, guard and version (never the figures), at most 5 attempts on the one
 * executor's curve, the re-read after, a later try with the same key, and Ctrl-C between attempts.
 */
import { afterEach, describe, expect, test } from "vitest";
import { type ApiClient, createApiClient, idempotencyKey } from "../../src/api/index.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { guardPauseKey, type PausePort, tryPause } from "../../src/watch/guard-pause.js";
import { admin, PARENT_KEY } from "../sandbox/helpers.js";
import { clearRequests, liveProject, requestLog } from "./harness.js";
import { SEND_AT, watchWorld } from "./world.js";

const REASON = "guard: failure rate 40.0% > 20% (4 of 10 sent)";

let sb: SandboxHandle | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
  client = undefined;
});

async function setUp(faults?: string) {
  const world = watchWorld(1);
  const s = await startSandbox({
    fixture: world.fixture,
    timeScale: 0,
    rateLimits: true,
    ...(faults === undefined ? {} : { faults }),
  });
  sb = s;
  await admin(s, "PATCH", "/simulation", { messages_per_batch: 1 });
  await admin(s, "POST", "/clock/advance", { ms: SEND_AT.getTime() - s.clock.nowMs() + 5_000 });
  const sleep = async (ms: number) => {
    await s.clock.advance(ms);
  };
  client = createApiClient({
    baseUrl: s.baseUrl,
    apiKey: PARENT_KEY,
    clock: { now: () => s.clock.nowMs() },
    sleep,
  });
  await clearRequests(s);
  return { s, world, client, sleep };
}

const pauses = async (s: SandboxHandle) =>
  (await requestLog(s)).filter((r) => r.method === "POST" && r.route === "/projects/{id}/pause");

const deps = (
  port: PausePort,
  sleep: (ms: number) => Promise<void>,
  signal = new AbortController().signal,
) => ({
  port,
  sleep,
  signal,
  maxSends: 5,
  backoffMs: 1000,
});

describe("tryPause", () => {
  test("reads first, pauses with a key of project, guard and version, re-reads: landed", async () => {
    const { s, world, client: c, sleep } = await setUp();
    const id = world.senders[0] as string;
    const before = (await admin(s, "GET", `/projects/${id}`)).body.data;
    expect(before.status).toBe("active");
    const result = await tryPause({ id, guard: "failure-rate", reason: REASON, key: null }, deps(c, sleep));
    const key = idempotencyKey({
      org: before.organization_id,
      project_id: id,
      action: "pause",
      body: { guard: "failure-rate" },
      based_on: before.updated_at,
    });
    expect(guardPauseKey(before, "failure-rate")).toBe(key);
    expect(result).toEqual({ outcome: "landed", key, sends: 1, replayed: false, pauseReason: REASON });
    expect((await requestLog(s)).map((r) => `${r.method} ${r.route}`)).toEqual([
      "GET /projects/{id}",
      "POST /projects/{id}/pause",
      "GET /projects/{id}",
    ]);
    expect((await liveProject(s, id)).pause_reason).toBe(REASON);
  });

  test("the key does not depend on the figures: another reason, same key", async () => {
    const { s, world } = await setUp();
    const id = world.senders[0] as string;
    const before = (await admin(s, "GET", `/projects/${id}`)).body.data;
    expect(guardPauseKey(before, "failure-rate")).toBe(guardPauseKey(before, "failure-rate"));
    expect(guardPauseKey(before, "failure-rate")).not.toBe(guardPauseKey(before, "opt-out-rate"));
    expect(guardPauseKey(before, "failure-rate")).not.toBe(
      guardPauseKey({ ...before, updated_at: "2026-12-01T15:00:07.000Z" }, "failure-rate"),
    );
  });

  test("a project that no longer sends ends the pause: nothing sent", async () => {
    const { s, world, client: c, sleep } = await setUp();
    const result = await tryPause(
      { id: world.completed, guard: "failure-rate", reason: REASON, key: null },
      deps(c, sleep),
    );
    expect(result).toMatchObject({ outcome: "ended", status: "completed", key: null, sends: 0 });
    expect(await pauses(s)).toEqual([]);
  });

  test("a read that fails leaves it pending, nothing sent, no key yet", async () => {
    const { s, world, client: c, sleep } = await setUp("GET /projects/{id}: status(500)");
    const result = await tryPause(
      { id: world.senders[0] as string, guard: "failure-rate", reason: REASON, key: null },
      deps(c, sleep),
    );
    expect(result).toMatchObject({ outcome: "pending", key: null, sends: 0 });
    if (result.outcome !== "pending") throw new Error("unreachable");
    expect(result.error).toMatch(/500|INTERNAL_ERROR/);
    expect(await pauses(s)).toEqual([]);
  });

  test("at most 5 attempts a try, one key, apply's waits; still sending after: pending; the next try keeps the key", async () => {
    const { s, world, client: c, sleep } = await setUp("POST /projects/{id}/pause: status(500) n=5");
    const id = world.senders[0] as string;
    const started = s.clock.nowMs();
    const result = await tryPause({ id, guard: "failure-rate", reason: REASON, key: null }, deps(c, sleep));
    expect(result).toMatchObject({ outcome: "pending", sends: 5 });
    const sent = await pauses(s);
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((r) => r.idempotency_key))).toEqual(new Set([result.key]));
    // 1, 2, 4, 8 s between the 5 attempts (the unknown outcome re-read before each).
    const gaps = sent.slice(1).map((r, i) => Date.parse(r.at) - Date.parse(sent[i]?.at ?? r.at));
    expect(gaps.map((g) => Math.round(g / 1000))).toEqual([1, 2, 4, 8]);
    expect(s.clock.nowMs() - started).toBeGreaterThanOrEqual(15_000);
    expect((await liveProject(s, id)).status).toBe("active");
    // The next try (a later poll) sends the same key, whatever the project's version is now.
    const again = await tryPause(
      { id, guard: "failure-rate", reason: REASON, key: result.key },
      deps(c, sleep),
    );
    expect(again).toMatchObject({ outcome: "landed", key: result.key, sends: 1 });
    expect(new Set((await pauses(s)).map((r) => r.idempotency_key))).toEqual(new Set([result.key]));
  });

  test("two watches racing with different figures: one key, one pause effect; the loser's 422 is settled by a re-read: landed", async () => {
    const { s, world, client: c, sleep } = await setUp();
    const id = world.senders[0] as string;
    const t = (reason: string) => ({ id, guard: "failure-rate" as const, reason, key: null });
    // The race that loses: both read the same version (one key), the first pause lands, then the
    // second arrives with its own figures. Each step is a real request to the sandbox; the ports
    // only hold a request back until the other watch's step is done.
    let secondRead = (): void => {};
    const secondHasRead = new Promise<void>((resolve) => (secondRead = resolve));
    let firstDone = (): void => {};
    const firstHasLanded = new Promise<void>((resolve) => (firstDone = resolve));
    const first: PausePort = {
      getProject: (project) => c.getProject(project),
      pauseProject: async (...args) => {
        await secondHasRead;
        return c.pauseProject(...args);
      },
    };
    const second: PausePort = {
      getProject: async (project) => {
        const read = await c.getProject(project);
        secondRead();
        return read;
      },
      pauseProject: async (...args) => {
        await firstHasLanded;
        return c.pauseProject(...args);
      },
    };
    const [a, b] = await Promise.all([
      tryPause(t("guard: failure rate 58.3% > 20% (7 of 12 sent)"), {
        ...deps(c, sleep),
        port: first,
      }).finally(() => firstDone()),
      tryPause(t("guard: failure rate 53.3% > 20% (8 of 15 sent)"), { ...deps(c, sleep), port: second }),
    ]);
    expect(a).toMatchObject({ outcome: "landed", sends: 1 });
    expect(b).toMatchObject({ outcome: "landed", key: a.key, sends: 1 });
    const sent = await pauses(s);
    expect(sent.map((r) => [r.status, r.idempotency_key])).toEqual([
      [200, a.key],
      [422, a.key],
    ]);
    const pausesMade = (await admin(s, "GET", "/effects?kind=pause")).body.data.effects;
    expect(pausesMade).toHaveLength(1);
    expect((await liveProject(s, id)).pause_reason).toBe("guard: failure rate 58.3% > 20% (7 of 12 sent)");
  });

  test("a refused pause of a project still sending stays pending, with the API's words and the re-read's", async () => {
    const { s, world, client: c, sleep } = await setUp("POST /projects/{id}/pause: status(400) n=1");
    const id = world.senders[0] as string;
    const result = await tryPause({ id, guard: "failure-rate", reason: REASON, key: null }, deps(c, sleep));
    expect(result).toMatchObject({ outcome: "pending", sends: 1 });
    expect(result.outcome === "pending" && result.error).toMatch(/400.*the project still reads active/);
    expect((await liveProject(s, id)).status).toBe("active");
  });

  test("a pause that landed under an answer lost, then started again by a person before the re-read: landed, never replayed forever", async () => {
    // The pause takes effect and its answer is a 500; a person starts the project again in the
    // dashboard before watch re-reads it; the re-read shows it sending, so the same key is sent
    // again and the API replays the stored pause (nothing happens).
    const {
      s,
      world,
      client: c,
      sleep,
    } = await setUp("POST /projects/{id}/pause: commit-then-fail(500) n=1");
    const id = world.senders[0] as string;
    let reads = 0;
    const port: PausePort = {
      pauseProject: (...args) => c.pauseProject(...args),
      getProject: async (projectId) => {
        reads++;
        if (reads === 2) expect((await admin(s, "POST", `/projects/${projectId}/resume`)).status).toBe(200);
        return c.getProject(projectId);
      },
    };
    const result = await tryPause(
      { id, guard: "failure-rate", reason: REASON, key: null },
      deps(port, sleep),
    );
    // The replay is the pause this key made: it landed (a person started the project again since,
    // which the next poll sees, and judges again). Before, it was pending with a spent key, and
    // every later try replayed the stored answer: nothing paused the project again in the run.
    expect(result).toMatchObject({ outcome: "landed", replayed: true, sends: 2 });
    const sent = await pauses(s);
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((r) => r.idempotency_key))).toEqual(new Set([result.key]));
    const made = (await admin(s, "GET", "/effects?kind=pause")).body.data.effects;
    expect(made).toHaveLength(1);
    expect((await liveProject(s, id)).status).toBe("active");
  });

  test("Ctrl-C between attempts: nothing more is sent, pending", async () => {
    const { s, world, client: c, sleep } = await setUp("POST /projects/{id}/pause: status(503)");
    const controller = new AbortController();
    const result = await tryPause(
      { id: world.senders[0] as string, guard: "failure-rate", reason: REASON, key: null },
      deps(
        c,
        async (ms: number) => {
          controller.abort();
          await sleep(ms);
        },
        controller.signal,
      ),
    );
    expect(result).toMatchObject({ outcome: "pending", sends: 1 });
    expect(await pauses(s)).toHaveLength(1);
  });
});
