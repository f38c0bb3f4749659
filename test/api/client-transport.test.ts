/**
 * Transport-level behaviour of the client over real HTTP on loopback, against a scripted server:
 * request shape, retries, unknown outcomes, replay flag, 429 handling, timeouts, and key secrecy.
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ApiClient, type ApiEvent, createApiClient, RateLimiter } from "../../src/api/index.js";
import { createTransport } from "../../src/api/transport.js";
import { liveProject } from "../plan/builders.js";
import { mediaData, organizationData } from "./answer-data.js";
import { fakeTime, type StubServer, startStub } from "./stub-server.js";

const KEY = "pc_live_TEST_KEY_must_never_leak_0123456789";
const IDEM = "cc1-test-key-0123456789abcdef";
const ok = (data: unknown, headers?: Record<string, string>) => ({
  status: 200,
  body: { success: true, data },
  headers,
});

let stub: StubServer;
let client: ApiClient;
let time: ReturnType<typeof fakeTime>;
let events: ApiEvent[];

function makeClient(overrides: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  return createApiClient({
    baseUrl: stub.baseUrl,
    apiKey: KEY,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    onEvent: (e) => events.push(e),
    ...overrides,
  });
}

beforeEach(async () => {
  stub = await startStub();
  time = fakeTime();
  events = [];
  client = makeClient();
});

afterEach(async () => {
  await client.close();
  await stub.close();
  expect(JSON.stringify(events)).not.toContain(KEY);
});

describe("requests", () => {
  it("sends the key header, encodes path segments and query, and unwraps the envelope", async () => {
    stub.script(
      ok(liveProject({ project_id: "a/b" }), {
        "x-ratelimit-limit": "100",
        "x-ratelimit-remaining": "99",
        "x-ratelimit-reset": "1700000060",
      }),
    );
    const r = await client.getProject("a/b");
    expect(r).toEqual({
      ok: true,
      value: liveProject({ project_id: "a/b" }),
      meta: {
        status: 200,
        replayed: false,
        attempts: 1,
        rateLimit: { limit: 100, remaining: 99, resetAt: 1_700_000_060 },
      },
    });
    expect(stub.seen[0]?.url).toBe("/v1/projects/a%2Fb");
    expect(stub.seen[0]?.headers["x-api-key"]).toBe(KEY);

    stub.script(ok([]));
    await client.listPhoneNumbers({ organization_id: "org 1", channel: "toll-free" });
    expect(stub.seen[1]?.url).toBe("/v1/phone-numbers?organization_id=org+1&channel=toll-free");
    expect(client.stats().byEndpoint).toEqual({ "GET /phone-numbers": 1, "GET /projects/{id}": 1 });
  });

  it("sends writes as JSON with the caller's Idempotency-Key", async () => {
    stub.script({
      status: 202,
      body: { success: true, data: { project_id: "p1", status: "awaiting_test", test_messages: [] } },
    });
    const r = await client.testProject("p1", { test_contacts: [{ phone: "+15555550100" }] }, IDEM);
    expect(r.ok && r.meta.status).toBe(202);
    const seen = stub.seen[0];
    expect(seen?.method).toBe("POST");
    expect(seen?.headers["idempotency-key"]).toBe(IDEM);
    expect(seen?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen?.body ?? "")).toEqual({ test_contacts: [{ phone: "+15555550100" }] });
  });

  it("surfaces X-Idempotent-Replayed", async () => {
    stub.script(ok({}, { "x-idempotent-replayed": "true" }));
    const r = await client.pauseProject("p1", { reason: "manual" }, IDEM);
    expect(r.ok && r.meta.replayed).toBe(true);
  });
});

describe("retries of reads", () => {
  it("retries a GET after a 500 with backoff", async () => {
    stub.script({ status: 500, body: { error: "boom", code: "INTERNAL_ERROR" } }, ok(mediaData("m1")));
    const r = await client.getMedia("m1");
    expect(r.ok).toBe(true);
    expect(stub.seen).toHaveLength(2);
    expect(time.sleeps).toEqual([375]);
    expect(client.stats()).toMatchObject({ requests: 2, retries: 1, retriesByReason: { "server-error": 1 } });
    expect(events.filter((e) => e.type === "retry")).toMatchObject([
      { reason: "server-error", attempt: 1, delayMs: 375 },
    ]);
  });

  it("retries a GET after a connection reset", async () => {
    stub.script("reset", ok([organizationData("o1")]));
    const r = await client.listOrganizations();
    expect(r.ok && r.value).toEqual([organizationData("o1")]);
    expect(
      events.filter((e) => e.type === "request-end").map((e) => e.type === "request-end" && e.cause),
    ).toEqual(["connection-reset", null]);
  });

  it("gives up after maxAttempts and returns a network error with outcome none", async () => {
    const dead = createApiClient({
      baseUrl: "http://127.0.0.1:1/v1",
      apiKey: KEY,
      clock: time.clock,
      sleep: time.sleep,
      random: () => 0,
    });
    const r = await dead.getProject("p1");
    await dead.close();
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({
      kind: "network",
      cause: "connection-refused",
      outcome: "none",
      attempts: 4,
    });
    expect(time.sleeps).toEqual([250, 500, 1000]);
    expect(r.error.message).not.toContain(KEY);
  });

  it("times out a response that never comes", async () => {
    const slow = makeClient({ timeouts: { headersMs: 50 }, retry: { maxAttempts: 1 } });
    stub.script("hang");
    const r = await slow.getProject("p1");
    await slow.close();
    expect(!r.ok && r.error).toMatchObject({
      kind: "network",
      cause: "timeout",
      errorCode: "UND_ERR_HEADERS_TIMEOUT",
    });
  });
});

describe("writes", () => {
  it("returns 503 SEND_ENQUEUE_FAILED on a write at once (outcome none); a resend with the same key counts as a retry", async () => {
    stub.script(
      { status: 503, body: { error: "could not queue", code: "SEND_ENQUEUE_FAILED" } },
      {
        status: 202,
        body: {
          success: true,
          data: {
            message_id: "m",
            conversation_id: "c1",
            project_id: "p1",
            from: "+15035550101",
            to: "+19715551000",
            text: "hi",
            created_at: "2026-11-01T00:00:00Z",
          },
        },
      },
    );
    const first = await client.replyToConversation("c1", "hi", IDEM);
    expect(!first.ok && first.error).toMatchObject({
      status: 503,
      code: "SEND_ENQUEUE_FAILED",
      outcome: "none",
      attempts: 1,
    });
    expect(stub.seen).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
    const second = await client.replyToConversation("c1", "hi", IDEM);
    expect(second.ok && second.meta.attempts).toBe(1);
    expect(stub.seen.map((s) => s.headers["idempotency-key"])).toEqual([IDEM, IDEM]);
    expect(stub.seen[0]?.body).toBe(stub.seen[1]?.body);
    expect(client.stats()).toMatchObject({
      requests: 2,
      retries: 1,
      retriesByReason: { "enqueue-failed": 1 },
    });
    expect(events.filter((e) => e.type === "retry")).toEqual([]);
  });

  it("does not retry a 500 on a write: the outcome is unknown", async () => {
    stub.script({ status: 500, body: { error: "oops", code: "INTERNAL_ERROR", correlationId: "corr-9" } });
    const r = await client.scheduleProject(
      "p1",
      {
        scheduled_at: "2026-11-03T09:00:00-05:00",
        scheduled_timezone: "America/New_York",
        daily_cap_bypass: false,
      },
      IDEM,
    );
    expect(stub.seen).toHaveLength(1);
    expect(!r.ok && r.error).toMatchObject({
      kind: "http",
      status: 500,
      code: "INTERNAL_ERROR",
      outcome: "unknown",
      correlationId: "corr-9",
    });
  });

  it("does not retry a dropped connection on a write", async () => {
    stub.script("reset");
    const r = await client.pauseProject("p1", {}, IDEM);
    expect(stub.seen).toHaveLength(1);
    expect(!r.ok && r.error).toMatchObject({ kind: "network", outcome: "unknown" });
  });

  it("returns a 409 with Retry-After at once: outcome unknown, the Retry-After kept for the caller", async () => {
    stub.script(
      {
        status: 409,
        body: { error: "in progress", code: "IDEMPOTENCY_KEY_IN_USE" },
        headers: { "retry-after": "2" },
      },
      ok({}, { "x-idempotent-replayed": "true" }),
    );
    const r = await client.pauseProject("p1", {}, IDEM);
    expect(!r.ok && r.error).toMatchObject({
      status: 409,
      retryAfterSeconds: 2,
      outcome: "unknown",
      attempts: 1,
    });
    expect(stub.seen).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it("a 429 on a write is returned at once and holds every request of the process for Retry-After", async () => {
    stub.script(
      {
        status: 429,
        body: {
          success: false,
          error: "Too Many Requests",
          message: "slow down",
          code: "RATE_LIMIT_EXCEEDED",
          statusCode: 429,
          retryAfter: 3,
        },
        headers: { "retry-after": "3" },
      },
      ok(liveProject()),
    );
    const r = await client.pauseProject("p1", {}, IDEM);
    expect(!r.ok && r.error).toMatchObject({
      status: 429,
      retryAfterSeconds: 3,
      outcome: "none",
      attempts: 1,
    });
    expect(time.sleeps).toEqual([]);
    // The next request of the process, whatever it is, waits out the Retry-After in the shared limiter.
    expect((await client.getProject("p1")).ok).toBe(true);
    expect(time.sleeps).toEqual([3000]);
    expect(client.stats()).toMatchObject({ throttled: 1, rateLimiter: { waitMs: 3000, throttled: 1 } });
  });

  it("reports an unreadable 2xx body on a write as unknown outcome", async () => {
    stub.script({ status: 200, body: "<html>", raw: true });
    const r = await client.pauseProject("p1", {}, IDEM);
    expect(!r.ok && r.error).toMatchObject({
      kind: "network",
      cause: "malformed-response",
      status: 200,
      outcome: "unknown",
    });
  });

  it("refuses a write without a valid key as a programming error", async () => {
    await expect(client.pauseProject("p1", {}, "short")).rejects.toThrow(TypeError);
    expect(stub.seen).toHaveLength(0);
  });
});

describe("rate limiting", () => {
  it("waits out a 429 by Retry-After through the shared limiter, then retries", async () => {
    stub.script(
      {
        status: 429,
        body: {
          success: false,
          error: "Too Many Requests",
          message: "slow down",
          code: "RATE_LIMIT_EXCEEDED",
          statusCode: 429,
          retryAfter: 3,
        },
        headers: { "retry-after": "3" },
      },
      ok(liveProject()),
    );
    const r = await client.getProject("p1");
    expect(r.ok).toBe(true);
    expect(time.sleeps).toEqual([3000]);
    expect(client.stats()).toMatchObject({
      throttled: 1,
      retriesByReason: { "rate-limited": 1 },
      rateLimiter: { waitMs: 3000, throttled: 1 },
    });
    expect(events.some((e) => e.type === "wait" && e.ms === 3000)).toBe(true);
  });

  it("shares one limiter between clients and adopts the header limit", async () => {
    const limiter = new RateLimiter({ clock: time.clock, sleep: time.sleep, marginMs: 0 });
    const a = makeClient({ limiter });
    const b = makeClient({ limiter });
    const limited = ok(liveProject(), { "x-ratelimit-limit": "2" });
    stub.script(limited, limited, limited);
    await a.getProject("p1");
    await b.getProject("p2");
    expect(time.sleeps).toEqual([]);
    await a.getProject("p3");
    expect(time.sleeps).toEqual([60_000]);
    await Promise.all([a.close(), b.close()]);
  });
});

describe("errors", () => {
  it("never carries the key, even when the server echoes it", async () => {
    stub.script({ status: 401, body: { error: "Unauthorized", message: `Invalid API key ${KEY}` } });
    const r = await client.getProject("p1");
    expect(!r.ok && r.error).toMatchObject({
      kind: "http",
      status: 401,
      code: "UNAUTHORIZED",
      shape: "auth",
    });
    expect(JSON.stringify(r)).not.toContain(KEY);
    expect(JSON.stringify(client.stats())).not.toContain(KEY);
  });
});

describe("closing", () => {
  it("fails a request still in flight, at each close (one error made for every close)", async () => {
    const origin = new URL(stub.baseUrl).origin;
    for (const round of [1, 2]) {
      const transport = createTransport();
      stub.script("hang");
      const pending = transport.send({
        origin,
        path: "/v1/projects/p1",
        method: "GET",
        headers: {},
        body: null,
      });
      // The request reaches the server before the close.
      await expect.poll(() => stub.seen.length).toBe(round);
      await transport.close();
      await expect(pending).rejects.toMatchObject({ code: "UND_ERR_DESTROYED" });
      // A closed transport closes again without a fault.
      await transport.close();
    }
  });
});
