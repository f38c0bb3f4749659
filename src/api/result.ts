/**
 * What every client call returns: a Result union. User-facing failures are data, never exceptions.
 */
import type { ValidationIssue } from "../contract/errors.js";

/** HTTP method the client sends. GET has no side effects; POST is a write. */
export type HttpMethod = "GET" | "POST";

/** Which of the contract's three error body shapes the body had (`unknown` when none fits). */
export type ErrorShape = "standard" | "auth" | "rate-limit" | "unknown";

/**
 * Whether a failed request may have taken effect. `none`: it certainly did not (every read, every
 * 4xx, 429, 503 SEND_ENQUEUE_FAILED). `unknown`: a write may have taken effect (other 5xx, transport
 * failures, a 409 whose first attempt is still running); resolve it by re-reading state, never by
 * resending blindly.
 */
export type Outcome = "none" | "unknown";

/** Where a request went: method, route template (`GET /projects/{id}`) and concrete path. */
export interface RequestIdentity {
  readonly method: HttpMethod;
  /** Route template such as `GET /projects/{id}`, the key of per-endpoint statistics. */
  readonly route: string;
  /** Path below the base URL, with encoded segments and without the query string. */
  readonly path: string;
}

/**
 * The API answered with an error status. Invariants: `code` is the body's `code`, or a synthetic one
 * (`UNAUTHORIZED` for a 401 auth body, `FORBIDDEN` for a 403 auth body, `HTTP_<status>` otherwise);
 * `message` never contains the API key; `retryAfterSeconds` comes from `Retry-After` (or the 429
 * body's `retryAfter`) and is null when absent.
 */
export interface ApiHttpError extends RequestIdentity {
  readonly kind: "http";
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly shape: ErrorShape;
  readonly correlationId: string | null;
  /** VALIDATION_ERROR: the field issues; other codes: the body's object (e.g. a balance shortfall). */
  readonly details: readonly ValidationIssue[] | Readonly<Record<string, unknown>> | null;
  readonly retryAfterSeconds: number | null;
  readonly outcome: Outcome;
  /** HTTP attempts made, including retries. */
  readonly attempts: number;
}

/** Why a transport failed. `malformed-response`: a body that is not JSON or lacks the envelope. */
export type NetworkCause =
  | "connection-refused"
  | "connection-reset"
  | "timeout"
  | "dns"
  | "tls"
  | "malformed-response"
  | "other";

/** The request failed below HTTP semantics. Invariant: `message` never contains the API key. */
export interface ApiNetworkError extends RequestIdentity {
  readonly kind: "network";
  readonly cause: NetworkCause;
  /** The underlying error code (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`, ...), when known. */
  readonly errorCode: string | null;
  /** HTTP status when a response arrived but its body was unusable, else null. */
  readonly status: number | null;
  /** The host (and port) the request went to, as the base URL names it; absent where unknown. */
  readonly host?: string;
  readonly message: string;
  readonly outcome: Outcome;
  readonly attempts: number;
}

/** One typed error for every failure of a call. */
export type ApiError = ApiHttpError | ApiNetworkError;

/** Rate-limit headers of a response (`X-RateLimit-*`); `resetAt` is Unix seconds. */
export interface RateLimitHeaders {
  readonly limit: number | null;
  readonly remaining: number | null;
  readonly resetAt: number | null;
}

/** Facts about a successful response. `replayed` is `X-Idempotent-Replayed: true`. */
export interface ResponseMeta {
  readonly status: number;
  readonly replayed: boolean;
  readonly rateLimit: RateLimitHeaders;
  readonly attempts: number;
}

/** Result of every client call. */
export type ApiResult<T> =
  | { readonly ok: true; readonly value: T; readonly meta: ResponseMeta }
  | { readonly ok: false; readonly error: ApiError };
