/**
 * The error of a request whose wait for the rate limit was refused (`rate-limit-bounds.ts`): it
 * was never sent, so its outcome is `none`, and it is never retried (the limiter refuses the later
 * requests of the key alike: for good when the clock does not move, until it is over for a
 * `Retry-After` of hours, the requests waiting with it for a key kept full two windows). Shaped as a transport failure with its own `errorCode`, as the
 * replies port's stop is (nothing arrived over HTTP); `isRateLimitStall` tells it apart, and the
 * Diagnostic code is `api.rate-limit-stuck`. Pure.
 */
import { RATE_WINDOW_MS } from "../contract/limits.js";
import { formatDuration } from "../text/duration.js";
import { RATE_LIMIT_MAX_WAIT_MS, type RateLimitStall, type RateLimitWaitCause } from "./rate-limit-bounds.js";
import type { ApiError, ApiNetworkError, RequestIdentity } from "./result.js";

/** The `errorCode` of a request whose wait for the rate limit was refused. */
export const RATE_LIMIT_STALL_CODE = "RATE_LIMIT_WAIT_REFUSED";

/** What the wait was for, as a clause. */
const CAUSE_TEXT: Readonly<Record<RateLimitWaitCause, string>> = {
  window: "this run's own requests filled the key's window",
  remaining: "the API's X-RateLimit-Remaining said the key's limit was used up",
  "retry-after": "the API answered 429 with a Retry-After",
};

/** Why the wait was refused, as a sentence. */
export function stallText(stall: RateLimitStall): string {
  const why = CAUSE_TEXT[stall.cause];
  const window = formatDuration(RATE_WINDOW_MS);
  switch (stall.reason) {
    case "too-long":
      return `the rate-limit wait asked for (${why}) is ${formatDuration(stall.askedMs)}, more than the ${formatDuration(RATE_LIMIT_MAX_WAIT_MS)} any reset of the contract's ${window} window can need`;
    case "clock-stuck":
      return `waited ${formatDuration(stall.waitedMs)} for a rate-limit slot (${why}) but the clock moved ${formatDuration(Math.max(0, stall.clockMovedMs))}: the reset never comes`;
    case "window-stuck":
      return `waited ${formatDuration(stall.waitedMs)} for a rate-limit slot (${why}) and the key is still full: two of the contract's ${window} windows passed without a slot freed (another process using the key hard, or a server whose clock does not move)`;
  }
}

/** The request's error: not sent, outcome `none`, `attempts` those made before. */
export function stallError(
  identity: RequestIdentity,
  stall: RateLimitStall,
  attempts: number,
): ApiNetworkError {
  return {
    ...identity,
    kind: "network",
    cause: "other",
    errorCode: RATE_LIMIT_STALL_CODE,
    status: null,
    message: `${identity.method} ${identity.path}: not sent: ${stallText(stall)}`,
    outcome: "none",
    attempts,
  };
}

/** Whether `error` is a refused rate-limit wait (no request was sent). */
export function isRateLimitStall(error: ApiError): boolean {
  return error.kind === "network" && error.errorCode === RATE_LIMIT_STALL_CODE;
}
