import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import { admin, api, CHILD_KEY, EARLY_VOTE, GOTV_REMINDER, sandbox, WRITE_ONLY_KEY } from "./helpers.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

const KEY = "cc1-0123456789abcdef";
const test1 = { test_contacts: [{ phone: "+15035550150" }] };

async function effects(s: SandboxHandle, kind: string): Promise<number> {
  return (await admin(s, "GET", `/effects?kind=${kind}`)).body.data.counts[kind] ?? 0;
}

describe("Idempotency-Key", () => {
  test.each([
    ["x".repeat(15), 400],
    ["x".repeat(16), 202],
    ["x".repeat(200), 202],
    ["x".repeat(201), 400],
    [`${"x".repeat(16)}\u00e9`, 400],
  ])("key of length %#", async (key, status) => {
    sb = await sandbox();
    const r = await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, { body: test1, idempotencyKey: key });
    expect(r.status).toBe(status);
    if (status === 400) {
      expectShape("validationError", r.body);
      expect(await effects(sb, "test")).toBe(0);
    }
  });

  test("a replay returns the stored status and body with X-Idempotent-Replayed and acts once", async () => {
    sb = await sandbox();
    const first = await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, {
      body: test1,
      idempotencyKey: KEY,
    });
    const second = await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, {
      body: test1,
      idempotencyKey: KEY,
    });
    expect(first.headers.get("x-idempotent-replayed")).toBeNull();
    expect(second.status).toBe(202);
    expect(second.headers.get("x-idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await effects(sb, "test")).toBe(1);
    expect((await admin(sb, "GET", "/test-messages")).body.data).toHaveLength(1);
  });

  test("the same key with a different body is 422 IDEMPOTENCY_MISMATCH", async () => {
    sb = await sandbox();
    await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, { body: test1, idempotencyKey: KEY });
    const r = await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, {
      body: { test_contacts: [{ phone: "+15035550151" }] },
      idempotencyKey: KEY,
    });
    expect(r.status).toBe(422);
    expectShape("standardError", r.body);
    expect(r.body.code).toBe("IDEMPOTENCY_MISMATCH");
  });

  test("bodies equal as JSON (key order, spacing) are the same request", async () => {
    sb = await sandbox();
    await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, {
      rawBody: '{"reason":"a"}',
      idempotencyKey: KEY,
    });
    const r = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, {
      rawBody: '{ "reason" : "a" }',
      idempotencyKey: KEY,
    });
    expect(r.headers.get("x-idempotent-replayed")).toBe("true");
  });

  test("the same key while the first request runs is 409 with Retry-After; afterwards it replays", async () => {
    sb = await sandbox({ faults: "POST /projects/{id}/pause: latency(5s) n=1" });
    const slow = api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: {}, idempotencyKey: KEY });
    await new Promise((r) => setImmediate(r));
    let conflict = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: {}, idempotencyKey: KEY });
    for (let i = 0; i < 20 && conflict.status !== 409; i++)
      conflict = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: {}, idempotencyKey: KEY });
    expect(conflict.status).toBe(409);
    expect(conflict.headers.get("retry-after")).toBe("1");
    expectShape("standardError", conflict.body);
    expect(sb.store.world.projects[EARLY_VOTE]?.status).toBe("scheduled");
    await sb.clock.advance(5000);
    expect((await slow).status).toBe(200);
    const replay = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: {}, idempotencyKey: KEY });
    expect(replay.headers.get("x-idempotent-replayed")).toBe("true");
    expect(await effects(sb, "pause")).toBe(1);
  });

  test("keys expire after 24 hours of virtual time", async () => {
    sb = await sandbox();
    await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: { reason: "one" }, idempotencyKey: KEY });
    await sb.clock.advance(24 * 60 * 60 * 1000 - 1);
    const within = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, {
      body: { reason: "two" },
      idempotencyKey: KEY,
    });
    expect(within.status).toBe(422);
    await sb.clock.advance(1);
    const after = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, {
      body: { reason: "two" },
      idempotencyKey: KEY,
    });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-idempotent-replayed")).toBeNull();
    expect(sb.store.world.projects[EARLY_VOTE]?.pause_reason).toBe("two");
  });

  test("keys are scoped per endpoint (route and path parameters) and organization", async () => {
    sb = await sandbox();
    await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, { status: "scheduled" });
    const a = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: {}, idempotencyKey: KEY });
    const b = await api(sb, "POST", `/projects/${GOTV_REMINDER}/pause`, { body: {}, idempotencyKey: KEY });
    const c = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, {
      body: {},
      idempotencyKey: KEY,
      key: WRITE_ONLY_KEY,
    });
    const d = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, {
      body: {},
      idempotencyKey: KEY,
      key: CHILD_KEY,
    });
    expect([a, b, c, d].map((r) => [r.status, r.headers.get("x-idempotent-replayed")])).toEqual([
      [200, null],
      [200, null],
      [200, "true"],
      [403, null],
    ]);
  });

  test("4xx answers are stored for replay", async () => {
    sb = await sandbox();
    const body = { scheduled_at: "2026-12-07T10:00:00-06:00", scheduled_timezone: "America/Chicago" };
    const refused = await api(sb, "POST", `/projects/${GOTV_REMINDER}/schedule`, {
      body,
      idempotencyKey: KEY,
    });
    expect(refused.status).toBe(400);
    await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, { status: "ready" });
    const again = await api(sb, "POST", `/projects/${GOTV_REMINDER}/schedule`, { body, idempotencyKey: KEY });
    expect([again.status, again.headers.get("x-idempotent-replayed")]).toEqual([400, "true"]);
    expect(again.body).toEqual(refused.body);
  });

  test.each([
    ["commit-then-fail(500)", 500, "true", 1],
    ["commit-then-fail(drop)", 0, "true", 1],
    ["status(503)", 503, null, 1],
    ["reset", 0, null, 1],
  ])(
    "after %s the retry with the same key finds the true outcome",
    async (fault, firstStatus, replayed, count) => {
      sb = await sandbox({ faults: `POST /projects/{id}/pause: ${fault} n=1` });
      const first = await fetch(`${sb.baseUrl}/projects/${EARLY_VOTE}/pause`, {
        method: "POST",
        headers: { "x-api-key": "pc_live_sbx_rv_rw_7Hq2mX9vT4", "idempotency-key": KEY },
      }).then(
        (r) => r.status,
        () => 0,
      );
      expect(first).toBe(firstStatus);
      const retry = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { idempotencyKey: KEY });
      expect(retry.status).toBe(200);
      expect(retry.headers.get("x-idempotent-replayed")).toBe(replayed);
      expect(await effects(sb, "pause")).toBe(count);
    },
  );
});
