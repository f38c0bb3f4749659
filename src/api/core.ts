/**
 * The request loop shared by every endpoint: rate-limit slot, one HTTP exchange, decoding, retry
 * decision, statistics and events. Endpoint functions only describe requests (see endpoints.ts).
 * Reads are retried here; a write is attempted once per call and its failure returned to the
 * caller's retry layer (see retry-policy.ts). Every 429, read or write, holds the shared limiter
 * for its `Retry-After`.
 */

import type { ApiEventListener } from "./events.js";
import { isValidIdempotencyKey } from "./idempotency-key.js";
import {
  decodeErrorResponse,
  headerValue,
  parseRateLimitHeaders,
  redact,
  unwrapEnvelope,
} from "./parse-response.js";
import { stallError } from "./rate-limit-stall.js";
import type { Clock, RateLimiter, Sleep } from "./rate-limiter.js";
import type { ResponseSchemaName } from "./response-schemas.js";
import { responseProblem } from "./response-shape.js";
import type {
  ApiError,
  ApiNetworkError,
  ApiResult,
  HttpMethod,
  NetworkCause,
  RequestIdentity,
} from "./result.js";
import {
  decideRetry,
  outcomeOf,
  type RetryOptions,
  type RetryReason,
  rateLimitDelayMs,
  writeRetryReason,
} from "./retry-policy.js";
import type { ServerClock } from "./server-clock.js";
import type { StatsCollector } from "./stats.js";
import type { Exchange, Transport } from "./transport.js";

/** Query values; undefined and null members are left out. */
export type QueryValue = string | number | boolean | null | undefined;

/** A request as an endpoint describes it. Invariant: `path` segments are already URL-encoded. */
export interface RequestSpec {
  readonly method: HttpMethod;
  /** Route template without the method, e.g. `/projects/{id}`. */
  readonly template: string;
  readonly path: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly body?: unknown;
  /** Required for POST. */
  readonly idempotencyKey?: string;
  /**
   * The schema of a success answer's `data` (response-schemas.ts): one that does not fit is
   * `malformed-response`. Absent only where the contract does not show the answer.
   */
  readonly answer?: ResponseSchemaName;
}

/** Sends a request and decodes its `data` as `T`, checked against `spec.answer` when given. */
export type Send = <T>(spec: RequestSpec) => Promise<ApiResult<T>>;

export interface CoreDeps {
  readonly origin: string;
  readonly pathPrefix: string;
  readonly apiKey: string;
  readonly userAgent: string;
  readonly transport: Transport;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly retry: RetryOptions;
  readonly stats: StatsCollector;
  /** Hears every response's `Date` header (the API's clock). */
  readonly serverClock: ServerClock;
  readonly onEvent: ApiEventListener | undefined;
}

const CAUSE_TEXT: Record<NetworkCause, string> = {
  "connection-refused": "connection refused",
  "connection-reset": "connection reset or dropped",
  timeout: "timed out",
  dns: "host name did not resolve",
  tls: "TLS handshake failed",
  "malformed-response": "unreadable response",
  other: "transport failure",
};

/** What failed, naming the host where the host is the question (a name, an address, a certificate). */
function causeText(cause: NetworkCause, host: string): string {
  switch (cause) {
    case "dns":
      return `host name ${hostName(host)} did not resolve`;
    case "connection-refused":
      return `${host} refused the connection`;
    case "tls":
      return `TLS handshake with ${host} failed`;
    default:
      return CAUSE_TEXT[cause];
  }
}

/** `api.example.com` of `api.example.com:8443`; an IPv6 literal stays in its brackets. */
function hostName(host: string): string {
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "");
}

function queryString(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (query === undefined) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

function networkError(
  identity: RequestIdentity,
  cause: NetworkCause,
  errorCode: string | null,
  status: number | null,
  detail: string | null,
  attempts: number,
  host: string,
): ApiNetworkError {
  const suffix = errorCode === null ? "" : ` (${errorCode})`;
  const message = `${identity.method} ${identity.path}: ${detail ?? causeText(cause, host)}${suffix}`;
  return {
    ...identity,
    kind: "network",
    cause,
    errorCode,
    status,
    host,
    message,
    outcome: outcomeOf(identity.method, { kind: "network", status }),
    attempts,
  };
}

/** Builds the `send` function every endpoint uses. */
export function createSend(deps: CoreDeps): Send {
  const { clock, limiter, stats } = deps;
  const host = new URL(deps.origin).host;
  let callSeq = 0;
  const emit: ApiEventListener = (event) => deps.onEvent?.(event);
  /**
   * Writes whose last attempt failed in a way the caller may retry, by Idempotency-Key: the next
   * call with that key is a retry of the same request, counted as one in the statistics.
   */
  const retriableWrites = new Map<string, RetryReason>();

  return async <T>(spec: RequestSpec): Promise<ApiResult<T>> => {
    if (
      spec.method === "POST" &&
      (spec.idempotencyKey === undefined || !isValidIdempotencyKey(spec.idempotencyKey))
    ) {
      throw new TypeError(`${spec.method} ${spec.template}: every write needs a valid Idempotency-Key`);
    }
    const callId = ++callSeq;
    stats.calls++;
    const identity: RequestIdentity = {
      method: spec.method,
      route: `${spec.method} ${spec.template}`,
      path: spec.path,
    };
    const base = { callId, ...identity };
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": deps.userAgent,
      "x-api-key": deps.apiKey,
    };
    const body = spec.body === undefined ? null : JSON.stringify(spec.body);
    if (body !== null) headers["content-type"] = "application/json";
    if (spec.idempotencyKey !== undefined) headers["idempotency-key"] = spec.idempotencyKey;
    const fullPath = `${deps.pathPrefix}${spec.path}${queryString(spec.query)}`;
    let attempts = 0;
    let rateLimited = 0;
    const writeKey = spec.method === "POST" ? (spec.idempotencyKey ?? null) : null;
    const resentFor = writeKey === null ? undefined : retriableWrites.get(writeKey);
    if (resentFor !== undefined) stats.countRetry(resentFor);

    for (;;) {
      const queuedAt = clock.now();
      const acquired = await limiter.acquire((wait) =>
        emit({ ...base, type: "wait-start", reason: "rate-limit", ...wait, atMs: clock.now() }),
      );
      if (!acquired.ok) {
        // Not sent: the wait for its slot was refused (rate-limit-stall.ts). Never retried.
        stats.failures++;
        if (writeKey !== null) retriableWrites.delete(writeKey);
        return { ok: false, error: stallError(identity, acquired.stall, attempts) };
      }
      const { ticket } = acquired;
      const startedAt = clock.now();
      if (startedAt > queuedAt) {
        stats.queuedMs += startedAt - queuedAt;
        emit({ ...base, type: "wait", reason: "rate-limit", ms: startedAt - queuedAt, atMs: startedAt });
      }
      attempts++;
      stats.countRequest(identity.route);
      emit({ ...base, type: "request-start", attempt: attempts, atMs: startedAt });
      let exchange: Exchange;
      try {
        exchange = await deps.transport.send({
          origin: deps.origin,
          path: fullPath,
          method: spec.method,
          headers,
          body,
        });
      } finally {
        ticket.settle(clock.now());
      }
      const endedAt = clock.now();

      let error: ApiError;
      if (exchange.kind === "response") {
        deps.serverClock.observe(headerValue(exchange.headers, "date"), endedAt);
        const rateLimit = parseRateLimitHeaders(exchange.headers);
        limiter.observe(rateLimit);
        const replayed =
          headerValue(exchange.headers, "x-idempotent-replayed")?.trim().toLowerCase() === "true";
        const { status } = exchange;
        emit({
          ...base,
          type: "request-end",
          attempt: attempts,
          status,
          cause: null,
          replayed,
          durationMs: endedAt - startedAt,
          atMs: endedAt,
        });
        if (status >= 200 && status < 300) {
          const envelope = unwrapEnvelope(exchange.text);
          const problem =
            envelope.ok && spec.answer !== undefined ? responseProblem(spec.answer, envelope.data) : null;
          if (envelope.ok && problem === null) {
            if (writeKey !== null) retriableWrites.delete(writeKey);
            return { ok: true, value: envelope.data as T, meta: { status, replayed, rateLimit, attempts } };
          }
          error = networkError(
            identity,
            "malformed-response",
            null,
            status,
            `HTTP ${status} but ${envelope.ok ? problem : envelope.reason}`,
            attempts,
            host,
          );
        } else {
          const decoded = decodeErrorResponse({
            identity,
            status,
            headers: exchange.headers,
            text: exchange.text,
            nowMs: endedAt,
            secret: deps.apiKey,
          });
          error = { ...decoded, outcome: outcomeOf(spec.method, decoded), attempts };
          if (status === 429) {
            stats.throttled++;
            // Every request of the process waits, whether or not this call retries.
            limiter.throttle(rateLimitDelayMs(error));
          }
        }
      } else {
        emit({
          ...base,
          type: "request-end",
          attempt: attempts,
          status: null,
          cause: exchange.cause,
          replayed: false,
          durationMs: endedAt - startedAt,
          atMs: endedAt,
        });
        error = networkError(identity, exchange.cause, exchange.errorCode, null, null, attempts, host);
      }

      const decision = decideRetry(spec.method, error, { attempts, rateLimited }, deps.retry, deps.random);
      if (!decision.retry) {
        stats.failures++;
        if (writeKey !== null) {
          const reason = writeRetryReason(error);
          if (reason === null) retriableWrites.delete(writeKey);
          else retriableWrites.set(writeKey, reason);
        }
        return { ok: false, error: { ...error, message: redact(error.message, deps.apiKey) } };
      }
      stats.countRetry(decision.reason);
      emit({
        ...base,
        type: "retry",
        attempt: attempts,
        reason: decision.reason,
        delayMs: decision.delayMs,
        atMs: clock.now(),
      });
      switch (decision.via) {
        case "limiter":
          // The limiter already holds every request for the 429's Retry-After (above).
          rateLimited++;
          break;
        case "sleep":
          stats.retryWaitMs += decision.delayMs;
          await deps.sleep(decision.delayMs);
          break;
      }
    }
  };
}
