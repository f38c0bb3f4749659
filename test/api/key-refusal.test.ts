/**
 * What a failure says about the key and about reading again (src/api/key-refusal.ts): the rule
 * behind routing's second identity read and the hint of a key that could not be used.
 */
import { describe, expect, it } from "vitest";
import { mayPassOnRereading, refusesKey } from "../../src/api/key-refusal.js";
import type { ApiError, NetworkCause } from "../../src/api/result.js";

const at = { method: "GET", route: "GET /organizations", path: "/organizations" } as const;

function http(status: number): ApiError {
  return {
    ...at,
    kind: "http",
    status,
    code: `HTTP_${status}`,
    message: "m",
    shape: "standard",
    correlationId: null,
    details: null,
    retryAfterSeconds: null,
    outcome: "none",
    attempts: 4,
  };
}

function network(cause: NetworkCause): ApiError {
  return {
    ...at,
    kind: "network",
    cause,
    errorCode: null,
    status: null,
    message: "m",
    outcome: "none",
    attempts: 4,
  };
}

describe("a failure and the key", () => {
  it("only a 401 or a 403 refuses the key", () => {
    expect([401, 403, 404, 429, 500, 503].map((s) => refusesKey(http(s)))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(refusesKey(network("connection-reset"))).toBe(false);
  });

  it("a blip may pass on reading again; a refused key, or a place where nothing answers, never", () => {
    expect([401, 403, 429, 500, 503].map((s) => mayPassOnRereading(http(s)))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
    const causes: NetworkCause[] = [
      "connection-refused",
      "dns",
      "tls",
      "connection-reset",
      "timeout",
      "malformed-response",
      "other",
    ];
    expect(causes.map((c) => [c, mayPassOnRereading(network(c))])).toEqual([
      ["connection-refused", false],
      ["dns", false],
      ["tls", false],
      ["connection-reset", true],
      ["timeout", true],
      ["malformed-response", true],
      ["other", true],
    ]);
  });
});
