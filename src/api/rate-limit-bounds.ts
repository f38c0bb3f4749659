/**
 * The bounds of the client's waits for the rate limit, in one place (docs/api-connection.md, "Rate
 * limit"), derived from the contract's Limits: 100 requests a minute per key in a 60-second sliding
 * window, and a 429's `Retry-After` to back off. Pure constants and the one rule that applies them.
 */
import { RATE_WINDOW_MS } from "../contract/limits.js";

/**
 * A wait for the rate limit at least this long is announced before it starts (the `wait-start`
 * event; the CLI says so once on stderr). Shorter waits are the ordinary pacing of a run at 100
 * requests a minute (one slot frees every 0.6 s) and are only counted.
 */
export const RATE_LIMIT_NOTICE_MS = 5_000;

/**
 * The longest one request waits for its slot, all its waits added up, before the client gives up
 * on it (see `RateLimiter` for the requests after it); and the longest single wait asked for. Every counted request leaves
 * the contract's 60-second window within 60 s, so neither a reset nor a `Retry-After` ever needs
 * more than one window; two windows leave room for rounding, clock skew and a slot freed a little
 * late, and still end a wait that no reset will end: a `Retry-After` or reset far beyond the
 * window, or a clock that does not move (waited out twice over, the slot is still not free).
 */
export const RATE_LIMIT_MAX_WAIT_MS = 2 * RATE_WINDOW_MS;

/** Why a request waits for the rate limit. */
export type RateLimitWaitCause =
  /** This process's own requests filled the key's window (`X-RateLimit-Limit` a minute). */
  | "window"
  /** `X-RateLimit-Remaining` said fewer requests are left than this process believed (another user of the key). */
  | "remaining"
  /** A 429 asked to back off for its `Retry-After`. */
  | "retry-after";

/** A wait about to start: `ms` long, until `untilMs` on the client's clock. */
export interface RateLimitWait {
  readonly cause: RateLimitWaitCause;
  readonly ms: number;
  readonly untilMs: number;
}

/**
 * Why the client gave up waiting. `too-long`: the wait asked for is longer than
 * {@link RATE_LIMIT_MAX_WAIT_MS} (a `Retry-After` of an hour). The waits added up passed that bound
 * and the slot is still not free: `clock-stuck` when the clock the waits are measured on moved less
 * than half the time waited (a frozen or slow clock, a sleep that does not sleep: no later wait can
 * end either), `window-stuck` when it kept pace (the API kept the key full for two windows: another
 * process using the key hard, or a server whose own clock does not move, such as a sandbox frozen
 * with `--time-scale 0` and limits on, seen from another process).
 */
export interface RateLimitStall {
  readonly reason: "too-long" | "clock-stuck" | "window-stuck";
  readonly cause: RateLimitWaitCause;
  /** The wait that was refused, in ms. */
  readonly askedMs: number;
  /** What this request had already waited (the sleeps' lengths added up), in ms. */
  readonly waitedMs: number;
  /** How far the clock moved meanwhile, in ms. */
  readonly clockMovedMs: number;
}

/**
 * The one rule: whether a request that has waited `waitedMs` (the clock moving `clockMovedMs`
 * meanwhile) may wait `askedMs` more, or the stall that ends it.
 */
export function judgeWait(
  cause: RateLimitWaitCause,
  askedMs: number,
  waitedMs: number,
  clockMovedMs: number,
): RateLimitStall | null {
  if (askedMs > RATE_LIMIT_MAX_WAIT_MS) return { reason: "too-long", cause, askedMs, waitedMs, clockMovedMs };
  if (waitedMs + askedMs <= RATE_LIMIT_MAX_WAIT_MS) return null;
  const reason = clockMovedMs < waitedMs / 2 ? "clock-stuck" : "window-stuck";
  return { reason, cause, askedMs, waitedMs, clockMovedMs };
}
