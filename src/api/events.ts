/**
 * Progress events of the client, for the executor's journal and progress view. Invariant: no event
 * carries the API key or any header value; paths carry only ids.
 */
import type { RateLimitWaitCause } from "./rate-limit-bounds.js";
import type { HttpMethod, NetworkCause } from "./result.js";
import type { RetryReason } from "./retry-policy.js";

/** Fields every event has. `callId` groups the attempts of one client call; `atMs` is clock time. */
interface EventBase {
  readonly callId: number;
  readonly method: HttpMethod;
  /** Route template such as `GET /projects/{id}`. */
  readonly route: string;
  readonly path: string;
  readonly atMs: number;
}

/** One HTTP attempt is about to be sent (`attempt` is 1-based). */
export interface RequestStartEvent extends EventBase {
  readonly type: "request-start";
  readonly attempt: number;
}

/** One HTTP attempt finished: `status` null and `cause` set when transport failed. */
export interface RequestEndEvent extends EventBase {
  readonly type: "request-end";
  readonly attempt: number;
  readonly status: number | null;
  readonly cause: NetworkCause | null;
  readonly replayed: boolean;
  readonly durationMs: number;
}

/** The client will retry after `delayMs` (held by the shared limiter when `reason` is `rate-limited`). */
export interface RetryEvent extends EventBase {
  readonly type: "retry";
  /** The attempt that failed. */
  readonly attempt: number;
  readonly reason: RetryReason;
  readonly delayMs: number;
}

/** The call waited `ms` for a rate-limit slot before its next attempt. */
export interface WaitEvent extends EventBase {
  readonly type: "wait";
  readonly reason: "rate-limit";
  readonly ms: number;
}

/**
 * The call is about to wait `ms` for the rate limit, until `untilMs` (the client's clock), because of
 * `cause`. Only waits of at least `RATE_LIMIT_NOTICE_MS` are announced (rate-limit-bounds.ts); the
 * `wait` event follows when the call got its slot.
 */
export interface WaitStartEvent extends EventBase {
  readonly type: "wait-start";
  readonly reason: "rate-limit";
  readonly cause: RateLimitWaitCause;
  readonly ms: number;
  readonly untilMs: number;
}

export type ApiEvent = RequestStartEvent | RequestEndEvent | RetryEvent | WaitEvent | WaitStartEvent;

/** Event hook. It must not throw: it runs inside the request loop. */
export type ApiEventListener = (event: ApiEvent) => void;
