/**
 * Pure decoding of HTTP responses: the success envelope, the three error body shapes, rate-limit and
 * Retry-After headers. No IO; the client feeds it status, headers and body text.
 */

import type { ValidationIssue } from "../contract/errors.js";
import { maskKeyShaped } from "../contract/key-shaped.js";
import { createRedactor, redactDeep as redactDeepWith } from "../text/redact.js";
import type { ApiHttpError, RateLimitHeaders, RequestIdentity } from "./result.js";

/** Response headers as undici gives them: lower-case names. */
export type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

/** First value of a header, or null. Names must be lower-case. */
export function headerValue(headers: HeaderMap, name: string): string | null {
  const v = headers[name];
  if (v === undefined) return null;
  if (Array.isArray(v)) return v[0] ?? null;
  return v;
}

function intHeader(headers: HeaderMap, name: string): number | null {
  const v = headerValue(headers, name)?.trim();
  if (v === undefined || !/^\d+$/.test(v)) return null;
  return Number(v);
}

/** `X-RateLimit-Limit`, `-Remaining`, `-Reset` (Unix seconds); absent or malformed values are null. */
export function parseRateLimitHeaders(headers: HeaderMap): RateLimitHeaders {
  return {
    limit: intHeader(headers, "x-ratelimit-limit"),
    remaining: intHeader(headers, "x-ratelimit-remaining"),
    resetAt: intHeader(headers, "x-ratelimit-reset"),
  };
}

/** `Retry-After` as whole seconds (delta-seconds or an HTTP date relative to `nowMs`), or null. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/**
 * `text` with every trace of `secret` masked: any run of 8 or more of its characters, in any case,
 * across line breaks (the one redactor, src/text/redact.ts; no-op for an empty secret); and first
 * any key-shaped run (src/contract/key-shaped.ts), as `*`: another key the server echoes shares the
 * 8 characters of the keys' prefix with `secret`, so the redactor would mask that prefix alone and
 * leave the other key's tail where no mask finds it again.
 */
export function redact(text: string, secret: string): string {
  return createRedactor([secret])(maskKeyShaped(text));
}

function redactDeep(value: unknown, secret: string): unknown {
  return redactDeepWith(value, (text) => redact(text, secret));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Outcome of decoding a 2xx body: the envelope's `data`, or why it could not be read. */
export type EnvelopeResult =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly reason: string };

/** Unwraps `{success: true, data}`. Anything else (not JSON, no envelope) is a malformed response. */
export function unwrapEnvelope(text: string): EnvelopeResult {
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, reason: "the response body is not JSON" };
  const body = parsed.value;
  if (!isRecord(body) || body.success !== true || !("data" in body)) {
    return { ok: false, reason: "the response body is not a {success: true, data} envelope" };
  }
  return { ok: true, data: body.data };
}

function synthesizeCode(status: number): string {
  if (status === 401) return "UNAUTHORIZED";
  if (status === 403) return "FORBIDDEN";
  return `HTTP_${status}`;
}

/**
 * `details` reduced to the contract's fields: an array keeps, of each item, only `code`, `path`,
 * `message` and `format` (items without a string `code` and `message` are dropped); an object
 * keeps only its members whose values are strings, numbers or booleans (a shortfall's figures).
 * Whatever else a server or a proxy put there never reaches the output.
 */
function details(value: unknown): ApiHttpError["details"] {
  if (Array.isArray(value))
    return value.flatMap((item): ValidationIssue[] => {
      if (!isRecord(item) || typeof item.code !== "string" || typeof item.message !== "string") return [];
      const path = Array.isArray(item.path)
        ? item.path.filter((p): p is string | number => typeof p === "string" || typeof p === "number")
        : [];
      return [
        {
          code: item.code,
          path,
          message: item.message,
          ...(typeof item.format === "string" ? { format: item.format } : {}),
        },
      ];
    });
  if (isRecord(value))
    return Object.fromEntries(
      Object.entries(value).filter(([, v]) => ["string", "number", "boolean"].includes(typeof v)),
    );
  return null;
}

/** An error response decoded, before the client adds `outcome` and `attempts`. */
export type DecodedHttpError = Omit<ApiHttpError, "outcome" | "attempts">;

/**
 * Decodes any error response into one typed value. Recognizes the rate-limit shape (429 or
 * `code: RATE_LIMIT_EXCEEDED`), the standard shape (`error` and `code`), the authentication shape
 * (`error` and `message`, synthetic code by status), and falls back to `HTTP_<status>` for bodies
 * that fit none (including non-JSON bodies from proxies). Every string is redacted of `secret`.
 */
export function decodeErrorResponse(input: {
  readonly identity: RequestIdentity;
  readonly status: number;
  readonly headers: HeaderMap;
  readonly text: string;
  readonly nowMs: number;
  readonly secret: string;
}): DecodedHttpError {
  const { identity, status, headers, nowMs, secret } = input;
  const parsed = parseJson(input.text);
  const body = parsed.ok && isRecord(parsed.value) ? parsed.value : null;
  const headerRetry = parseRetryAfter(headerValue(headers, "retry-after"), nowMs);
  const safe = (text: string): string => redact(text, secret);
  const safeOrNull = (text: string | null): string | null => (text === null ? null : safe(text));
  // Every member the API echoes may carry the key (a proxy echoing headers): redact them all.
  const correlationId = safeOrNull(body ? str(body.correlationId) : null);
  const base = { ...identity, kind: "http" as const, status, correlationId };

  const code = safeOrNull(body ? str(body.code) : null);
  if (body && (status === 429 || code === "RATE_LIMIT_EXCEEDED")) {
    const bodyRetry =
      typeof body.retryAfter === "number" && body.retryAfter >= 0 ? Math.ceil(body.retryAfter) : null;
    return {
      ...base,
      shape: "rate-limit",
      code: code ?? "RATE_LIMIT_EXCEEDED",
      message: safe(str(body.message) ?? str(body.error) ?? "Rate limit exceeded"),
      details: null,
      retryAfterSeconds: headerRetry ?? bodyRetry,
    };
  }
  const error = body ? str(body.error) : null;
  if (body && code !== null && error !== null) {
    return {
      ...base,
      shape: "standard",
      code,
      message: safe(error),
      details: details(redactDeep(body.details, secret)),
      retryAfterSeconds: headerRetry,
    };
  }
  const message = body ? str(body.message) : null;
  if (body && error !== null && message !== null) {
    return {
      ...base,
      shape: "auth",
      code: synthesizeCode(status),
      message: safe(message === error ? message : `${error}: ${message}`),
      details: null,
      retryAfterSeconds: headerRetry,
    };
  }
  return {
    ...base,
    shape: "unknown",
    code: code ?? synthesizeCode(status),
    message: safe(message ?? error ?? `HTTP ${status} with a body in none of the contract's error shapes`),
    details: null,
    retryAfterSeconds: headerRetry,
  };
}
