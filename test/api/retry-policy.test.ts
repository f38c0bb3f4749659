import { describe, expect, it } from "vitest";
import type { ApiHttpError, ApiNetworkError } from "../../src/api/index.js";
import {
  backoffMs,
  DEFAULT_RETRY,
  decideRetry,
  outcomeOf,
  writeFailureOf,
  writeRetryReason,
} from "../../src/api/retry-policy.js";

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
const first = { attempts: 1, rateLimited: 0 };
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

  it("429s have their own budget and never use up the 5xx retries", () => {
    const afterLimits = { attempts: 6, rateLimited: 5 };
    expect(decideRetry("GET", http(500, "INTERNAL_ERROR"), afterLimits, DEFAULT_RETRY, half)).toEqual({
      retry: true,
      reason: "server-error",
      delayMs: 375,
      via: "sleep",
    });
    const spent = { attempts: 5 + DEFAULT_RETRY.maxAttempts, rateLimited: 5 };
    expect(decideRetry("GET", net, spent, DEFAULT_RETRY, half).retry).toBe(false);
  });

  it("waits out a 429 on a read by Retry-After, through the shared limiter, at most max429Retries times", () => {
    expect(decideRetry("GET", http(429, "RATE_LIMIT_EXCEEDED", 9), first, DEFAULT_RETRY, half)).toEqual({
      retry: true,
      reason: "rate-limited",
      delayMs: 9_000,
      via: "limiter",
    });
    const spent = { attempts: 6, rateLimited: DEFAULT_RETRY.max429Retries };
    expect(decideRetry("GET", http(429, "RATE_LIMIT_EXCEEDED", 1), spent, DEFAULT_RETRY, half).retry).toBe(
      false,
    );
  });

  it("never retries a write: its caller is the one retry layer of writes", () => {
    const writes: readonly ApiHttpError[] = [
      http(429, "RATE_LIMIT_EXCEEDED", 9),
      http(409, "IDEMPOTENCY_KEY_IN_USE", 2),
      http(503, "SEND_ENQUEUE_FAILED"),
      http(500, "INTERNAL_ERROR"),
      http(409, "CONTACT_OPTED_OUT"),
    ];
    for (const e of writes)
      expect(decideRetry("POST", e, first, DEFAULT_RETRY, half).retry, e.code).toBe(false);
    expect(decideRetry("POST", { ...net, method: "POST" }, first, DEFAULT_RETRY, half).retry).toBe(false);
  });
});

describe("writeFailureOf", () => {
  const cases: readonly { readonly error: ApiHttpError | ApiNetworkError; readonly failure: string }[] = [
    { error: http(429, "RATE_LIMIT_EXCEEDED", 9), failure: "rate-limited" },
    { error: http(409, "IDEMPOTENCY_KEY_IN_USE", 2), failure: "in-progress" },
    { error: http(409, "CONTACT_OPTED_OUT"), failure: "refused" },
    { error: http(503, "SEND_ENQUEUE_FAILED"), failure: "enqueue-failed" },
    { error: http(503, "SERVICE_UNAVAILABLE"), failure: "unknown" },
    { error: http(500, "INTERNAL_ERROR"), failure: "unknown" },
    { error: { ...net, method: "POST" }, failure: "unknown" },
    { error: http(400, "VALIDATION_ERROR"), failure: "refused" },
    { error: http(422, "IDEMPOTENCY_MISMATCH"), failure: "refused" },
  ];
  it.each(cases)("$error.status $error.code -> $failure", ({ error, failure }) => {
    expect(writeFailureOf(error)).toBe(failure);
  });

  it("names the reason a later attempt with the same key is a retry; none after a refusal", () => {
    expect(writeRetryReason(http(500, "INTERNAL_ERROR"))).toBe("server-error");
    expect(writeRetryReason({ ...net, method: "POST" })).toBe("network");
    expect(writeRetryReason(http(503, "SEND_ENQUEUE_FAILED"))).toBe("enqueue-failed");
    expect(writeRetryReason(http(400, "VALIDATION_ERROR"))).toBeNull();
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
