/**
 * A guard's pause through the real client against a sandbox (loopback, virtual clock): the read
 * before (a project no longer sending is left alone), the Idempotency-Key derived as apply derives
 * it, at most 5 attempts on apply's curve, the re-read after, and Ctrl-C between attempts.
 */
import { afterEach, describe, expect, test } from "vitest";
import { type ApiClient, createApiClient, idempotencyKey } from "../../src/api/index.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { pauseForGuard } from "../../src/watch/guard-pause.js";
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

describe("pauseForGuard", () => {
  test("reads first, pauses with apply's key, re-reads: paused", async () => {
    const { s, world, client: c, sleep } = await setUp();
    const id = world.senders[0] as string;
    const before = (await admin(s, "GET", `/projects/${id}`)).body.data;
    expect(before.status).toBe("active");
    const result = await pauseForGuard(id, REASON, { port: c, sleep, signal: new AbortController().signal });
    const key = idempotencyKey({
      org: before.organization_id,
      project_id: id,
      action: "pause",
      body: { reason: REASON },
      based_on: before.updated_at,
    });
    expect(result).toEqual({ outcome: "paused", key, attempts: 1, replayed: false, pauseReason: REASON });
    expect((await requestLog(s)).map((r) => `${r.method} ${r.route}`)).toEqual([
      "GET /projects/{id}",
      "POST /projects/{id}/pause",
      "GET /projects/{id}",
    ]);
    expect((await liveProject(s, id)).pause_reason).toBe(REASON);
  });

  test("leaves a project that no longer sends alone: nothing sent", async () => {
    const { s, world, client: c, sleep } = await setUp();
    const result = await pauseForGuard(world.completed, REASON, {
      port: c,
      sleep,
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ outcome: "not-sending", status: "completed", key: null, attempts: 0 });
    expect(await pauses(s)).toEqual([]);
  });

  test("at most 5 attempts, one key, apply's waits; still unconfirmed after: unknown", async () => {
    const { s, world, client: c, sleep } = await setUp("POST /projects/{id}/pause: status(500)");
    const id = world.senders[0] as string;
    const started = s.clock.nowMs();
    const result = await pauseForGuard(id, REASON, { port: c, sleep, signal: new AbortController().signal });
    expect(result).toMatchObject({ outcome: "unknown", attempts: 5, statusAfter: "active" });
    if (result.outcome !== "unknown") throw new Error("unreachable");
    expect(result.diagnostic.code).toBe("watch.pause-unconfirmed");
    const sent = await pauses(s);
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((r) => r.idempotency_key)).size).toBe(1);
    // 1, 2, 4, 8 s between the 5 attempts (the unknown outcome re-read before each).
    const gaps = sent.slice(1).map((r, i) => Date.parse(r.at) - Date.parse(sent[i]?.at ?? r.at));
    expect(gaps.map((g) => Math.round(g / 1000))).toEqual([1, 2, 4, 8]);
    expect(s.clock.nowMs() - started).toBeGreaterThanOrEqual(15_000);
    expect((await liveProject(s, id)).status).toBe("active");
  });

  test("Ctrl-C between attempts: nothing more is sent", async () => {
    const { s, world, client: c, sleep } = await setUp("POST /projects/{id}/pause: status(503)");
    const controller = new AbortController();
    const result = await pauseForGuard(world.senders[0] as string, REASON, {
      port: c,
      sleep: async (ms) => {
        controller.abort();
        await sleep(ms);
      },
      signal: controller.signal,
    });
    expect(result).toMatchObject({ outcome: "failed", attempts: 1 });
    expect(await pauses(s)).toHaveLength(1);
  });
});
