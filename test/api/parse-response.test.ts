import { describe, expect, it } from "vitest";
import {
  decodeErrorResponse,
  parseRateLimitHeaders,
  parseRetryAfter,
  redact,
  unwrapEnvelope,
} from "../../src/api/parse-response.js";

const identity = { method: "GET", route: "GET /projects/{id}", path: "/projects/p1" } as const;
const KEY = "pc_live_SECRET123";
const decode = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  decodeErrorResponse({
    identity,
    status,
    headers,
    text: typeof body === "string" ? body : JSON.stringify(body),
    nowMs: 0,
    secret: KEY,
  });

describe("unwrapEnvelope", () => {
  it("returns data of a success envelope", () => {
    expect(unwrapEnvelope('{"success":true,"data":{"a":1}}')).toEqual({ ok: true, data: { a: 1 } });
    expect(unwrapEnvelope('{"success":true,"data":null}')).toEqual({ ok: true, data: null });
  });

  it("refuses non-JSON and bodies without the envelope", () => {
    expect(unwrapEnvelope("<html>").ok).toBe(false);
    expect(unwrapEnvelope('{"data":1}').ok).toBe(false);
    expect(unwrapEnvelope('{"success":false,"data":1}').ok).toBe(false);
  });
});

describe("decodeErrorResponse", () => {
  it("decodes the standard shape with validation details", () => {
    const details = [{ code: "too_small", path: ["test_contacts"], message: "at least 1" }];
    const e = decode(400, {
      error: "Validation failed",
      code: "VALIDATION_ERROR",
      correlationId: "c-1",
      details,
    });
    expect(e).toMatchObject({
      shape: "standard",
      status: 400,
      code: "VALIDATION_ERROR",
      message: "Validation failed",
    });
    expect(e.correlationId).toBe("c-1");
    expect(e.details).toEqual(details);
  });

  it("gives the auth shape a synthetic code by status", () => {
    expect(decode(401, { error: "Unauthorized", message: "Invalid or revoked API key" })).toMatchObject({
      shape: "auth",
      code: "UNAUTHORIZED",
      message: "Unauthorized: Invalid or revoked API key",
    });
    expect(decode(403, { error: "Forbidden", message: "missing scope public:read" }).code).toBe("FORBIDDEN");
  });

  it("decodes the rate-limit shape, preferring the Retry-After header", () => {
    const body = {
      success: false,
      error: "Too Many Requests",
      message: "slow down",
      code: "RATE_LIMIT_EXCEEDED",
      statusCode: 429,
      retryAfter: 12,
    };
    expect(decode(429, body, { "retry-after": "30" })).toMatchObject({
      shape: "rate-limit",
      retryAfterSeconds: 30,
      message: "slow down",
    });
    expect(decode(429, body).retryAfterSeconds).toBe(12);
  });

  it("falls back to HTTP_<status> for bodies in no known shape", () => {
    expect(decode(502, "<html>Bad gateway</html>")).toMatchObject({ shape: "unknown", code: "HTTP_502" });
  });

  it("redacts the key from every string of the body", () => {
    const e = decode(400, {
      error: `bad key ${KEY}`,
      code: "VALIDATION_ERROR",
      details: [{ path: ["x"], message: KEY, code: "k" }],
    });
    expect(JSON.stringify(e)).not.toContain(KEY);
  });

  it.each([
    ["code", { error: "bad", code: `ECHO_${KEY}` }],
    ["correlationId", { error: "bad", code: "VALIDATION_ERROR", correlationId: `req-${KEY}` }],
    ["rate-limit code", { error: "slow", message: "slow", code: KEY, statusCode: 429, retryAfter: 1 }],
  ])("redacts the key echoed in %s", (_member, body) => {
    const e = decode(body.code === KEY ? 429 : 400, body);
    expect(JSON.stringify(e)).not.toContain(KEY);
    // Masked: the run's own key as the redactor's mark, or as `*` where it stands whole (key-shaped).
    expect(JSON.stringify(e)).toMatch(/\[redacted\]|\*{8,}/);
  });
});

describe("headers", () => {
  it("parses X-RateLimit-* and ignores malformed values", () => {
    expect(
      parseRateLimitHeaders({
        "x-ratelimit-limit": "60",
        "x-ratelimit-remaining": "7",
        "x-ratelimit-reset": "1700000000",
      }),
    ).toEqual({
      limit: 60,
      remaining: 7,
      resetAt: 1_700_000_000,
    });
    expect(parseRateLimitHeaders({ "x-ratelimit-limit": "lots" })).toEqual({
      limit: null,
      remaining: null,
      resetAt: null,
    });
  });

  it("parses Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("5", 0)).toBe(5);
    expect(parseRetryAfter(new Date(10_500).toUTCString(), 0)).toBe(10);
    expect(parseRetryAfter("soon", 0)).toBeNull();
    expect(parseRetryAfter(null, 0)).toBeNull();
  });
});

describe("details reduced to the contract's fields", () => {
  it("keeps code, path, message and format of each issue, and the primitive members of an object", () => {
    const issues = decode(400, {
      error: "Validation failed",
      code: "VALIDATION_ERROR",
      details: [
        {
          code: "too_small",
          path: ["name", 0, { x: 1 }],
          message: "too short",
          format: "x",
          echo: { key: KEY },
        },
        { code: "no message" },
        "a string",
      ],
    });
    expect(issues.details).toEqual([
      { code: "too_small", path: ["name", 0], message: "too short", format: "x" },
    ]);
    const shortfall = decode(402, {
      error: "Insufficient balance",
      code: "INSUFFICIENT_BALANCE",
      details: { required: 12.5, available: 3, currency: "USD", headers: { "x-api-key": KEY } },
    });
    expect(shortfall.details).toEqual({ required: 12.5, available: 3, currency: "USD" });
  });
});

describe("redact", () => {
  it("replaces a key everywhere, also inside a longer word (what follows a key does not hide it)", () => {
    expect(redact("k=sk_live_abcdef123 and sk_live_abcdef123X", "sk_live_abcdef123")).toBe(
      "k=[redacted] and [redacted]X",
    );
  });

  it.each([
    [
      "x",
      "host name api.nonexistent.invalid did not resolve",
      "host name api.nonexistent.invalid did not resolve",
    ],
    ["x", "the key x was refused", "the key [redacted] was refused"],
    ["k.1", "k.1 and k21", "[redacted] and k21"],
  ])(
    "a short secret (%s, no real key) only where it stands alone: messages stay readable",
    (key, text, out) => {
      expect(redact(text, key)).toBe(out);
    },
  );
});
