/**
 * The fault table of the one write executor (design.md "Retries"), once, over real HTTP to the
 * sandbox on loopback (rate limits on, virtual clock: every wait advances it), with faults injected
 * through the sandbox's fault routes and the real client's pause as the write. The re-read is the
 * caller's callback: `paused` -> happened, still sending -> not happened. Each row says what was
 * sent (requests in the sandbox's log, one key), what was re-read, how long it waited, and what
 * the executor concluded; effects are counted from `/_sandbox/effects`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type ApiClient, createApiClient } from "../../src/api/index.js";
import type { ApiError } from "../../src/api/result.js";
import { organizationFailed } from "../../src/api/routing/routes.js";
import { executeWrite, type Reread } from "../../src/api/write-executor.js";
import type { Project } from "../../src/contract/resources.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, PARENT_KEY } from "../sandbox/helpers.js";
import { clearRequests, effects, requestLog } from "../watch/harness.js";
import { SEND_AT, watchWorld } from "../watch/world.js";

const world = watchWorld(1);
const ID = world.senders[0] as string;
const KEY = "cc1-executor-fault-table-000000000000000000000";

let sb: SandboxHandle;
let client: ApiClient;

beforeAll(async () => {
  sb = await startSandbox({ fixture: world.fixture, timeScale: 0, rateLimits: true });
  client = createApiClient({
    baseUrl: sb.baseUrl,
    apiKey: PARENT_KEY,
    clock: { now: () => sb.clock.nowMs() },
    sleep: async (ms) => {
      await sb.clock.advance(ms);
    },
  });
});

afterAll(async () => {
  await client.close();
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

beforeEach(async () => {
  await admin(sb, "POST", "/reset");
  await admin(sb, "DELETE", "/faults");
  await admin(sb, "PATCH", "/simulation", { messages_per_batch: 1 });
  await admin(sb, "POST", "/clock/advance", { ms: SEND_AT.getTime() - sb.clock.nowMs() + 5_000 });
  await clearRequests(sb);
});

interface Row {
  readonly name: string;
  readonly faults: string | null;
  readonly kind: string;
  readonly sends: number;
  readonly rereads: number;
  /** Virtual seconds waited between the sends. */
  readonly waits: readonly number[];
  /** Pause effects that changed the project. */
  readonly effects: number;
}

const P = "POST /projects/{id}/pause";
const TABLE: readonly Row[] = [
  { name: "2xx at once", faults: null, kind: "accepted", sends: 1, rereads: 0, waits: [], effects: 1 },
  {
    name: "429 twice with Retry-After 7: same key after 7 s each",
    faults: `${P}: status(429, retry-after=7) n=2`,
    kind: "accepted",
    sends: 3,
    rereads: 0,
    waits: [7, 7],
    effects: 1,
  },
  {
    name: "409 still running with Retry-After 3: the same key again after 3 s",
    faults: `${P}: status(409, retry-after=3) n=1`,
    kind: "accepted",
    sends: 2,
    rereads: 0,
    waits: [3],
    effects: 1,
  },
  {
    name: "503 SEND_ENQUEUE_FAILED twice: nothing happened, resent on the curve",
    faults: `${P}: status(503) n=2`,
    kind: "accepted",
    sends: 3,
    rereads: 0,
    waits: [1, 2],
    effects: 1,
  },
  {
    name: "500 twice (nothing happened): re-read each time, resent with the same key",
    faults: `${P}: status(500) n=2`,
    kind: "accepted",
    sends: 3,
    rereads: 2,
    waits: [1, 2],
    effects: 1,
  },
  {
    name: "500 after the pause took effect: the re-read settles it, nothing resent",
    faults: `${P}: commit-then-fail(500) n=1`,
    kind: "happened",
    sends: 1,
    rereads: 1,
    waits: [],
    effects: 1,
  },
  {
    name: "dropped connection before it ran: re-read, resent",
    faults: `${P}: reset n=1`,
    kind: "accepted",
    sends: 2,
    rereads: 1,
    waits: [1],
    effects: 1,
  },
  {
    name: "400 refused: stop at once, no re-read",
    faults: `${P}: status(400)`,
    kind: "refused",
    sends: 1,
    rereads: 0,
    waits: [],
    effects: 0,
  },
  {
    name: "422 refused: stop at once, no re-read",
    faults: `${P}: status(422)`,
    kind: "refused",
    sends: 1,
    rereads: 0,
    waits: [],
    effects: 0,
  },
  {
    name: "500 every time: the budget of 5 sends, then unknown",
    faults: `${P}: status(500)`,
    kind: "unknown",
    sends: 5,
    rereads: 5,
    waits: [1, 2, 4, 8],
    effects: 0,
  },
  {
    name: "502 (another 5xx) once: outcome unknown, re-read, resent with the same key",
    faults: `${P}: status(502) n=1`,
    kind: "accepted",
    sends: 2,
    rereads: 1,
    waits: [1],
    effects: 1,
  },
  {
    name: "409 with Retry-After 2 every time: 5 sends, then one last re-read: unknown, never a silent give-up",
    faults: `${P}: status(409, retry-after=2)`,
    kind: "unknown",
    sends: 5,
    rereads: 1,
    waits: [2, 2, 4, 8],
    effects: 0,
  },
  {
    name: "connection dropped after the pause took effect: the re-read settles it, nothing resent",
    faults: `${P}: commit-then-fail(drop) n=1`,
    kind: "happened",
    sends: 1,
    rereads: 1,
    waits: [],
    effects: 1,
  },
  {
    name: "503 every time: the budget of 5 sends, then not taken (no re-read)",
    faults: `${P}: status(503)`,
    kind: "not-taken",
    sends: 5,
    rereads: 0,
    waits: [1, 2, 4, 8],
    effects: 0,
  },
];

describe("executeWrite: the contract's retry classes against the sandbox", () => {
  test.each(TABLE)("$name", async (row) => {
    if (row.faults !== null) await admin(sb, "POST", "/faults", { spec: row.faults });
    let rereads = 0;
    const outcome = await executeWrite<unknown, Project>(
      {
        send: () => client.pauseProject(ID, { reason: "guard: executor fault table" }, KEY),
        reread: async (): Promise<Reread<Project>> => {
          rereads++;
          const res = await client.getProject(ID);
          if (!res.ok) return { verdict: "unreadable", text: res.error.message, value: null };
          return {
            verdict: res.value.status === "paused" ? "happened" : "not-happened",
            text: res.value.status,
            value: res.value,
          };
        },
      },
      {
        maxAttempts: 5,
        firstBackoffMs: 1000,
        sleep: async (ms) => {
          await sb.clock.advance(ms);
        },
        signal: new AbortController().signal,
      },
    );
    expect(outcome.kind).toBe(row.kind);
    expect(outcome.sends).toBe(row.sends);
    expect(rereads).toBe(row.rereads);
    const log = await requestLog(sb);
    const sent = log.filter((r) => `${r.method} ${r.route}` === P);
    expect(sent).toHaveLength(row.sends);
    expect(new Set(sent.map((r) => r.idempotency_key))).toEqual(new Set([KEY]));
    const gaps = sent.slice(1).map((r, i) => (Date.parse(r.at) - Date.parse(sent[i]?.at ?? r.at)) / 1000);
    expect(gaps.map(Math.round)).toEqual(row.waits);
    expect(log.filter((r) => r.route === "/projects/{id}")).toHaveLength(row.rereads);
    const changed = (await effects(sb, "pause")).filter((e) => e.changed);
    expect(changed).toHaveLength(row.effects);
  });

  test("a write the router sent nowhere (its organization's key failed a bulk read) is blocked: no re-read, no request", async () => {
    // The router's answer for an organization whose key's statistics failed (retries spent): the
    // read's 500, sent nowhere. Before, taken for a 500 whose outcome was open: re-read, "unknown".
    const failure: ApiError = {
      kind: "http",
      status: 500,
      code: "INTERNAL_ERROR",
      message: "Internal server error",
      shape: "standard",
      correlationId: null,
      details: null,
      retryAfterSeconds: null,
      outcome: "none",
      attempts: 4,
      method: "GET",
      route: "GET /projects/stats",
      path: "/projects/stats",
    };
    let rereads = 0;
    const outcome = await executeWrite<unknown, Project>(
      {
        send: async () => ({ ok: false, error: organizationFailed(failure) }),
        reread: async () => {
          rereads++;
          return { verdict: "unreadable", text: "not read", value: null };
        },
      },
      { maxAttempts: 5, firstBackoffMs: 1000, sleep: async () => {}, signal: new AbortController().signal },
    );
    expect(outcome).toMatchObject({ kind: "blocked", sends: 0 });
    expect(rereads).toBe(0);
    expect(await requestLog(sb)).toEqual([]);
  });

  test("Ctrl-C during a wait: nothing more is sent, not taken (interrupted)", async () => {
    await admin(sb, "POST", "/faults", { spec: `${P}: status(503)` });
    const controller = new AbortController();
    const outcome = await executeWrite<unknown, Project>(
      {
        send: () => client.pauseProject(ID, { reason: "guard: executor fault table" }, KEY),
        reread: async () => ({ verdict: "unreadable", text: "not read", value: null }),
      },
      {
        maxAttempts: 5,
        firstBackoffMs: 1000,
        sleep: async (ms) => {
          controller.abort();
          await sb.clock.advance(ms);
        },
        signal: controller.signal,
      },
    );
    expect(outcome).toMatchObject({ kind: "not-taken", sends: 1, interrupted: true });
    expect((await requestLog(sb)).filter((r) => `${r.method} ${r.route}` === P)).toHaveLength(1);
  });
});
