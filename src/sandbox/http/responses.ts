/**
 * Builders of the contract's response bodies: the success envelope and the three error shapes
 * (standard, authentication, rate limit). Handlers return these as data; nothing here throws.
 */
import { randomUUID } from "node:crypto";
import type {
  AuthErrorBody,
  RateLimitErrorBody,
  StandardErrorBody,
  ValidationIssue,
} from "../../contract/errors.js";

/** What a handler answers. Invariant: `body` is JSON-serializable; headers are lower-case names. */
export interface ApiResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function ok(data: unknown, status = 200): ApiResponse {
  return { status, body: { success: true, data } };
}

export function standardError(
  status: number,
  code: string,
  error: string,
  details?: StandardErrorBody["details"],
  headers?: Record<string, string>,
): ApiResponse {
  const body: StandardErrorBody = { error, code, correlationId: randomUUID() };
  if (details !== undefined) body.details = details;
  return headers ? { status, body, headers } : { status, body };
}

export function validationError(issues: ValidationIssue[], error = "Validation failed"): ApiResponse {
  return standardError(400, "VALIDATION_ERROR", error, issues);
}

/** A single-issue VALIDATION_ERROR (parameters, or a request the resource state does not allow). */
export function invalid(path: (string | number)[], message: string, code = "custom"): ApiResponse {
  return validationError([{ code, path, message }], message);
}

export function authError(status: 401 | 403, error: string, message: string): ApiResponse {
  const body: AuthErrorBody = { error, message };
  return { status, body };
}

export function rateLimited(retryAfter: number, limit: number): ApiResponse {
  const body: RateLimitErrorBody = {
    success: false,
    error: "Too Many Requests",
    message: `Rate limit of ${limit} requests per minute exceeded. Retry after ${retryAfter} seconds.`,
    code: "RATE_LIMIT_EXCEEDED",
    statusCode: 429,
    retryAfter,
  };
  return { status: 429, body, headers: { "retry-after": String(retryAfter) } };
}

export function notFound(code: string, what: string): ApiResponse {
  return standardError(404, code, `${what} not found`);
}

export function orgAccessDenied(): ApiResponse {
  return standardError(
    403,
    "ORG_ACCESS_DENIED",
    "Resource belongs to an organization outside this key's hierarchy",
  );
}

/**
 * The contract's body for a bare status code, used by injected faults: 429 the rate-limit shape,
 * 401/403 the authentication shape, everything else the standard shape with the code the contract
 * names for it (500 INTERNAL_ERROR, 503 SEND_ENQUEUE_FAILED, ...).
 */
export function bodyForStatus(status: number, retryAfter: number): ApiResponse {
  switch (status) {
    case 429:
      return rateLimited(retryAfter, 100);
    case 401:
      return authError(401, "Unauthorized", "Invalid or missing API key");
    case 403:
      return authError(403, "Forbidden", "API key lacks the required permission scope");
    case 409:
      return standardError(409, "IDEMPOTENCY_KEY_IN_USE", "Conflict", undefined, {
        "retry-after": String(retryAfter),
      });
    default:
      return standardError(status, codeForStatus(status), messageForStatus(status));
  }
}

function codeForStatus(status: number): string {
  if (status === 400) return "VALIDATION_ERROR";
  if (status === 402) return "INSUFFICIENT_BALANCE";
  if (status === 404) return "NOT_FOUND";
  if (status === 422) return "IDEMPOTENCY_MISMATCH";
  if (status === 503) return "SEND_ENQUEUE_FAILED";
  return status >= 500 ? "INTERNAL_ERROR" : "BAD_REQUEST";
}

function messageForStatus(status: number): string {
  if (status === 503) return "Message could not be queued; charge reversed";
  if (status >= 500) return "Internal server error";
  return "Request failed";
}
