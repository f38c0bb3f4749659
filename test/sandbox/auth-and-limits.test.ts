import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import {
  api,
  EARLY_VOTE,
  exampleFixture,
  GOTV_REMINDER,
  ORG,
  PARENT_KEY,
  sandbox,
  WRITE_ONLY_KEY,
} from "./helpers.js";

const REVOKED = "pc_live_sbx_revoked_key_0001";
const EXPIRING = "pc_live_sbx_expiring_key_0001";
const READ_ONLY_SCOPE = "pc_live_sbx_readonly_scope_01";
const DELETE_ONLY = "pc_live_sbx_delete_only_0001";

function fixtureWithKeys() {
  const f = exampleFixture();
  f.api_keys.push(
    { key: REVOKED, organization_id: ORG, revoked: true },
    { key: EXPIRING, organization_id: ORG, expires_at: "2026-12-01T16:00:00Z" },
    { key: READ_ONLY_SCOPE, organization_id: ORG, scopes: ["public:read"] },
    { key: DELETE_ONLY, organization_id: ORG, type: "delete-only", scopes: ["public:delete"] },
  );
  return f;
}

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

describe("authentication", () => {
  test.each([
    ["missing", null],
    ["malformed", "sk_test_123"],
    ["unknown", "pc_live_sbx_nobody_knows_me"],
    ["revoked", REVOKED],
  ])("%s key -> 401 with the authentication body and rate headers", async (_name, key) => {
    sb = await sandbox({ fixture: fixtureWithKeys() });
    const r = await api(sb, "GET", "/organizations", { key });
    expect(r.status).toBe(401);
    expectShape("authError", r.body);
    expect(r.headers.get("x-ratelimit-limit")).toBe("100");
  });

  test("a key expires on the virtual clock", async () => {
    sb = await sandbox({ fixture: fixtureWithKeys() });
    expect((await api(sb, "GET", "/organizations", { key: EXPIRING })).status).toBe(200);
    await sb.clock.advance(60 * 60 * 1000);
    const r = await api(sb, "GET", "/organizations", { key: EXPIRING });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/expired/);
  });

  test.each([
    ["read scope only, write", READ_ONLY_SCOPE, "POST", `/projects/${EARLY_VOTE}/pause`, 403],
    ["read scope only, read", READ_ONLY_SCOPE, "GET", "/organizations", 200],
    ["write-only, read", WRITE_ONLY_KEY, "GET", "/organizations", 403],
    ["write-only, write", WRITE_ONLY_KEY, "POST", `/projects/${EARLY_VOTE}/pause`, 200],
    ["delete-only, read", DELETE_ONLY, "GET", "/organizations", 403],
    ["delete-only, write", DELETE_ONLY, "POST", `/projects/${EARLY_VOTE}/pause`, 403],
  ])("%s -> %s", async (_name, key, method, path, status) => {
    sb = await sandbox({ fixture: fixtureWithKeys() });
    const r = await api(sb, method, path, { key, body: method === "POST" ? {} : undefined });
    expect(r.status).toBe(status);
    if (status === 403) {
      expectShape("authError", r.body);
      expect(sb.store.world.projects[EARLY_VOTE]?.status).toBe("scheduled");
    }
  });
});

describe("rate limits", () => {
  test.each([
    ["read-write", PARENT_KEY, 100],
    ["write-only", WRITE_ONLY_KEY, 60],
  ])("%s key %s: the last request within the limit passes, the next is 429", async (_type, key, limit) => {
    sb = await sandbox({ rateLimits: true });
    const method = key === WRITE_ONLY_KEY ? "POST" : "GET";
    const path = key === WRITE_ONLY_KEY ? `/projects/${EARLY_VOTE}/pause` : `/projects/${GOTV_REMINDER}`;
    let last = await api(sb, method, path, { key, body: method === "POST" ? {} : undefined });
    expect(last.headers.get("x-ratelimit-remaining")).toBe(String(limit - 1));
    for (let i = 2; i <= limit; i++)
      last = await api(sb, method, path, { key, body: method === "POST" ? {} : undefined });
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-limit")).toBe(String(limit));
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
    const over = await api(sb, method, path, { key, body: method === "POST" ? {} : undefined });
    expect(over.status).toBe(429);
    expectShape("rateLimitError", over.body);
    expect(over.headers.get("retry-after")).toBe(String(over.body.retryAfter));
    expect(over.body.retryAfter).toBe(60);
    expect(over.headers.get("x-ratelimit-limit")).toBe(String(limit));
    expect(over.headers.get("x-ratelimit-reset")).toBe(String(Math.ceil((sb.clock.nowMs() + 60_000) / 1000)));
  });

  test("the window slides on the virtual clock", async () => {
    sb = await sandbox({ rateLimits: true });
    for (let i = 0; i < 50; i++) await api(sb, "GET", "/organizations");
    await sb.clock.advance(30_000);
    for (let i = 0; i < 50; i++) await api(sb, "GET", "/organizations");
    const limited = await api(sb, "GET", "/organizations");
    expect(limited.status).toBe(429);
    expect(limited.body.retryAfter).toBe(30);
    await sb.clock.advance(29_999);
    expect((await api(sb, "GET", "/organizations")).status).toBe(429);
    await sb.clock.advance(1);
    const freed = await api(sb, "GET", "/organizations");
    expect(freed.status).toBe(200);
    // The first 50 left the window together; the second 50 and this one remain.
    expect(freed.headers.get("x-ratelimit-remaining")).toBe("49");
  });

  test("keys have separate windows and errors carry the headers too", async () => {
    sb = await sandbox({ rateLimits: true });
    for (let i = 0; i < 100; i++) await api(sb, "GET", "/organizations");
    const other = await api(sb, "GET", "/projects/missing", { key: WRITE_ONLY_KEY });
    expect(other.status).toBe(403);
    expect(other.headers.get("x-ratelimit-limit")).toBe("60");
    expect(other.headers.get("x-ratelimit-remaining")).toBe("59");
  });

  test("rateLimits: false sends headers, counts nothing and never 429s", async () => {
    sb = await sandbox({ rateLimits: false });
    const nowSeconds = Math.ceil((sb.clock.nowMs() + 60_000) / 1000);
    for (let i = 0; i < 120; i++) {
      const reply = await api(sb, "GET", "/organizations");
      expect(reply.status).toBe(200);
      // The key's exact limit, all of it remaining (a client that obeys it never waits), reset a
      // window from now (the clock is frozen).
      expect(reply.headers.get("x-ratelimit-limit")).toBe("100");
      expect(reply.headers.get("x-ratelimit-remaining")).toBe("100");
      expect(reply.headers.get("x-ratelimit-reset")).toBe(String(nowSeconds));
    }
    const writeOnly = await api(sb, "GET", "/projects/missing", { key: WRITE_ONLY_KEY });
    expect(writeOnly.headers.get("x-ratelimit-limit")).toBe("60");
    expect(writeOnly.headers.get("x-ratelimit-remaining")).toBe("60");
  });
});
