/**
 * An action's error by where it arose: API error bodies (as the client decodes them), transport
 * failures and our own findings, and how the reports show each. Table-driven.
 */
import { describe, expect, test } from "vitest";
import type { ApiError } from "../../src/api/index.js";
import { decodeErrorResponse } from "../../src/api/parse-response.js";
import { apiActionError, ownActionError } from "../../src/apply/action-error.js";
import type { ActionError } from "../../src/apply/types.js";
import { describeError, errorCodeOf } from "../../src/report/apply-describe.js";

const identity = { method: "POST", route: "POST /projects/{id}/test", path: "/projects/p1/test" } as const;

/** The client's error for a response with this status and body. */
function answered(status: number, body: unknown): ApiError {
  const decoded = decodeErrorResponse({
    identity,
    status,
    headers: {},
    text: typeof body === "string" ? body : JSON.stringify(body),
    nowMs: 0,
    secret: "sk_test_secret",
  });
  return { ...decoded, outcome: status >= 500 ? "unknown" : "none", attempts: 1 };
}

describe("apiActionError", () => {
  test.each<[string, ApiError, Partial<ActionError>, string]>([
    [
      "a code the contract names",
      answered(402, { error: "Insufficient balance", code: "INSUFFICIENT_BALANCE" }),
      { source: "api", status: 402, code: "INSUFFICIENT_BALANCE", api_code: "INSUFFICIENT_BALANCE" },
      "HTTP 402 INSUFFICIENT_BALANCE: Insufficient balance",
    ],
    [
      "a code the contract does not name is UNLISTED, and shown as sent",
      answered(409, { error: "Key in use", code: "IDEMPOTENCY_KEY_IN_USE" }),
      { source: "api", status: 409, code: "UNLISTED", api_code: "IDEMPOTENCY_KEY_IN_USE" },
      "HTTP 409 IDEMPOTENCY_KEY_IN_USE: Key in use",
    ],
    [
      "an authentication body has no code: named by its status",
      answered(401, { error: "Unauthorized", message: "Invalid API key" }),
      { source: "api", status: 401, code: "UNAUTHORIZED", api_code: null },
      "HTTP 401 UNAUTHORIZED: Unauthorized: Invalid API key",
    ],
    [
      "a permission body likewise",
      answered(403, { error: "Forbidden", message: "missing scope" }),
      { source: "api", status: 403, code: "FORBIDDEN", api_code: null },
      "HTTP 403 FORBIDDEN: Forbidden: missing scope",
    ],
    [
      "a body in none of the contract's shapes",
      answered(502, "<html>Bad gateway</html>"),
      { source: "api", status: 502, code: "UNLISTED", api_code: null },
      "HTTP 502 UNLISTED: HTTP 502 with a body in none of the contract's error shapes",
    ],
    [
      "a transport failure, by its cause",
      {
        ...identity,
        kind: "network",
        cause: "timeout",
        errorCode: "UND_ERR_HEADERS_TIMEOUT",
        status: null,
        message: "POST /projects/p1/test: timed out (UND_ERR_HEADERS_TIMEOUT)",
        outcome: "unknown",
        attempts: 1,
      },
      { source: "transport", status: null, cause: "timeout" },
      "timeout: POST /projects/p1/test: timed out (UND_ERR_HEADERS_TIMEOUT)",
    ],
  ])("%s", (_name, error, expected, shown) => {
    const built = apiActionError(error);
    expect(built).toMatchObject(expected);
    expect(describeError(built)).toBe(shown);
  });
});

describe("ownActionError", () => {
  test.each<[ActionError, string, string]>([
    [
      ownActionError("apply.outcome-unknown", "POST /projects/p1/test: timed out", 504),
      "apply.outcome-unknown",
      "HTTP 504 apply.outcome-unknown: POST /projects/p1/test: timed out",
    ],
    [
      ownActionError("apply.interrupted", "interrupted (Ctrl-C)"),
      "apply.interrupted",
      "apply.interrupted: interrupted (Ctrl-C)",
    ],
  ])("%j is shown by its diagnostic code", (error, code, shown) => {
    expect(error.source).toBe("campaignctl");
    expect(errorCodeOf(error)).toBe(code);
    expect(describeError(error)).toBe(shown);
  });
});
