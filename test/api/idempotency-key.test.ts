import { describe, expect, it } from "vitest";
import { idempotencyKey, isValidIdempotencyKey } from "../../src/api/index.js";

const base = {
  org: "org-1",
  project_id: "p-1",
  action: "schedule",
  body: {
    scheduled_at: "2026-11-03T09:00:00-05:00",
    scheduled_timezone: "America/New_York",
    daily_cap_bypass: false,
  },
  based_on: "2026-10-01T12:00:00.000Z",
};

describe("idempotencyKey", () => {
  it("is stable across key order at every depth", () => {
    const reordered = {
      based_on: base.based_on,
      body: {
        daily_cap_bypass: false,
        scheduled_timezone: "America/New_York",
        scheduled_at: "2026-11-03T09:00:00-05:00",
      },
      action: "schedule",
      project_id: "p-1",
      org: "org-1",
    };
    expect(idempotencyKey(reordered)).toBe(idempotencyKey(base));
  });

  it("differs when based_on, body, action, project or org differ", () => {
    const k = idempotencyKey(base);
    const variants = [
      { ...base, based_on: "2026-10-01T12:00:01.000Z" },
      { ...base, body: { ...base.body, daily_cap_bypass: true } },
      { ...base, action: "pause" },
      { ...base, project_id: "p-2" },
      { ...base, org: "org-2" },
      { ...base, based_on: null },
    ];
    const keys = variants.map(idempotencyKey);
    expect(new Set([k, ...keys]).size).toBe(variants.length + 1);
  });

  it("is the prefixed base64url SHA-256 of the canonical JSON", async () => {
    const { createHash } = await import("node:crypto");
    const input = { org: "o", project_id: null, action: "a", body: { b: 2, a: 1 }, based_on: null };
    const canonical = '{"action":"a","based_on":null,"body":{"a":1,"b":2},"org":"o","project_id":null}';
    expect(idempotencyKey(input)).toBe(`cc1-${createHash("sha256").update(canonical).digest("base64url")}`);
  });

  it("stays within 16..200 printable ASCII characters", () => {
    const k = idempotencyKey({ ...base, body: { text: "ünïcödé ✓ ".repeat(500) } });
    expect(k.length).toBeGreaterThanOrEqual(16);
    expect(k.length).toBeLessThanOrEqual(200);
    expect(k).toMatch(/^cc1-[A-Za-z0-9_-]+$/);
    expect(isValidIdempotencyKey(k)).toBe(true);
  });

  it("validates keys against the contract's bounds", () => {
    expect(isValidIdempotencyKey("short")).toBe(false);
    expect(isValidIdempotencyKey("x".repeat(201))).toBe(false);
    expect(isValidIdempotencyKey("tab\tinside-the-key")).toBe(false);
    expect(isValidIdempotencyKey("x".repeat(16))).toBe(true);
  });
});
