import { describe, expect, it } from "vitest";
import type { ApiHttpError, ApiNetworkError } from "../../src/api/index.js";
import { backoffMs, DEFAULT_RETRY, decideRetry, outcomeOf } from "../../src/api/retry-policy.js";

const id = { route: "X /x", path: "/x" };
const http = (status: number, code: string, retryAfterSeconds: number | null = null): ApiHttpError => ({
  ...id,
  method: "POST",
  kind: "http",
  status,
  code,
  message: "m",
  shape: "standard",
  correlationId: null,
  details: null,
  retryAfterSeconds,
  outcome: "none",
  attempts: 1,
});
const net: ApiNetworkError = {
  ...id,
  method: "GET",
  kind: "network",
  cause: "connection-reset",
  errorCode: "ECONNRESET",
  status: null,
  message: "m",
  outcome: "none",
  attempts: 1,
};
const first = { attempts: 1, rateLimited: 0, inProgress: 0 };
const half = () => 0.5;

describe("decideRetry", () => {
  it("retries GETs on network errors and 5xx with growing backoff, up to maxAttempts", () => {
    expect(decideRetry("GET", net, first, DEFAULT_RETRY, half)).toEqual({
      retry: true,
      reason: "network",
      delayMs: 375,
      via: "sleep",
    });
    expect(
      decideRetry("GET", http(500, "INTERNAL_ERROR"), { ...first, attempts: 2 }, DEFAULT_RETRY, half),
    ).toEqual({
      retry: true,
      reason: "server-error",
      delayMs: 750,
      via: "sleep",
    });
    expect(
      decideRetry("GET", net, { ...first, attempts: DEFAULT_RETRY.maxAttempts }, DEFAULT_RETRY, half).retry,
    ).toBe(false);
    expect(decideRetry("GET", http(404, "PROJECT_NOT_FOUND"), first, DEFAULT_RETRY, half).retry).toBe(false);
  });

  it("429s and 409s in progress have their own budget and never use up the 5xx retries", () => {
    const afterLimits = { attempts: 9, rateLimited: 5, inProgress: 3 };
    expect(decideRetry("GET", http(500, "INTERNAL_ERROR"), afterLimits, DEFAULT_RETRY, half)).toEqual({
      retry: true,
      reason: "server-error",
      delayMs: 375,
      via: "sleep",
    });
    expect(
      decideRetry("POST", http(503, "SEND_ENQUEUE_FAILED"), afterLimits, DEFAULT_RETRY, half).retry,
    ).toBe(true);
    const spent = { attempts: 5 + DEFAULT_RETRY.maxAttempts, rateLimited: 5, inProgress: 0 };
    expect(decideRetry("GET", net, spent, DEFAULT_RETRY, half).retry).toBe(false);
  });

  it("never retries a write on a network error or a plain 5xx", () => {
    expect(decideRetry("POST", net, first, DEFAULT_RETRY, half).retry).toBe(false);
    expect(decideRetry("POST", http(500, "INTERNAL_ERROR"), first, DEFAULT_RETRY, half).retry).toBe(false);
    expect(decideRetry("POST", http(409, "CONTACT_OPTED_OUT"), first, DEFAULT_RETRY, half).retry).toBe(false);
  });

  it("retries writes where the contract says nothing happened or the key is still running", () => {
    expect(decideRetry("POST", http(429, "RATE_LIMIT_EXCEEDED", 9), first, DEFAULT_RETRY, half)).toEqual({
      retry: true,
      reason: "rate-limited",
      delayMs: 9_000,
      via: "limiter",
    });
    expect(decideRetry("POST", http(409, "CONFLICT", 2), first, DEFAULT_RETRY, half)).toMatchObject({
      reason: "in-progress",
      delayMs: 2_000,
    });
    expect(decideRetry("POST", http(503, "SEND_ENQUEUE_FAILED"), first, DEFAULT_RETRY, half)).toMatchObject({
      reason: "enqueue-failed",
    });
    expect(decideRetry("POST", http(503, "SERVICE_UNAVAILABLE"), first, DEFAULT_RETRY, half).retry).toBe(
      false,
    );
  });

  it("bounds 429 and 409 retries", () => {
    expect(
      decideRetry(
        "GET",
        http(429, "RATE_LIMIT_EXCEEDED", 1),
        { ...first, rateLimited: 5 },
        DEFAULT_RETRY,
        half,
      ).retry,
    ).toBe(false);
    expect(
      decideRetry("POST", http(409, "X", 1), { ...first, inProgress: 5 }, DEFAULT_RETRY, half).retry,
    ).toBe(false);
  });
});

describe("backoffMs", () => {
  it("doubles, caps and jitters within [half, full]", () => {
    expect(backoffMs(1, DEFAULT_RETRY, () => 0)).toBe(250);
    expect(backoffMs(1, DEFAULT_RETRY, () => 1)).toBe(500);
    expect(backoffMs(3, DEFAULT_RETRY, () => 1)).toBe(2_000);
    expect(backoffMs(20, DEFAULT_RETRY, () => 1)).toBe(DEFAULT_RETRY.maxDelayMs);
  });
});

describe("outcomeOf", () => {
  it("is unknown only for writes that may have taken effect", () => {
    expect(outcomeOf("GET", { kind: "network", status: null })).toBe("none");
    expect(outcomeOf("POST", { kind: "network", status: null })).toBe("unknown");
    expect(outcomeOf("POST", http(500, "INTERNAL_ERROR"))).toBe("unknown");
    expect(outcomeOf("POST", http(503, "SEND_ENQUEUE_FAILED"))).toBe("none");
    expect(outcomeOf("POST", http(409, "X", 3))).toBe("unknown");
    expect(outcomeOf("POST", http(400, "VALIDATION_ERROR"))).toBe("none");
  });
});
