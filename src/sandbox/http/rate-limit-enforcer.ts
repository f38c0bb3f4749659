/**
 * Per-key 60-second sliding window on the virtual clock (contract Limits): 100, 60 or 30 requests
 * by key type. Every admitted request counts; rejected (429) requests do not. Headers report the
 * key's exact limit, what remains after this request, and the Unix second at which the oldest
 * counted request leaves the window.
 *
 * With limits off (`--no-rate-limits`, `rateLimits: false`) nothing is counted: the headers report
 * the key's exact limit, all of it remaining, and a reset one window from now, as for a key with no
 * traffic. A client that obeys `X-RateLimit-Remaining` then never waits for a limit that is not
 * enforced (a count that reached 0 on a frozen or slow virtual clock kept a client waiting for a
 * reset that never came).
 *
 * Cost: each key's window is a queue of (millisecond, count) runs, oldest first, so a request costs
 * O(1) amortized and a key holds at most the key's limit (admitted requests only; with limits off
 * there is no window at all, and a request costs building its three headers). The window stays exact to the
 * millisecond. A request made after the clock was set back is stamped at the key's newest stamp,
 * so the queue stays in order and the clock's jump back frees nothing.
 */
import { RATE_LIMITS, RATE_WINDOW_MS } from "../../contract/limits.js";
import type { ApiKeyRecord } from "../state/world.js";

export interface RateVerdict {
  readonly limited: boolean;
  readonly retryAfter: number;
  readonly headers: Record<string, string>;
}

/** Compact a queue once this many runs at its head have left the window. */
const COMPACT_AFTER = 1024;

/**
 * One key's window. Invariants: `stamps` ascending from `head`; `counts[i] >= 1` for `i >= head`;
 * `total` is the sum of `counts` from `head`.
 */
class KeyWindow {
  private stamps: number[] = [];
  private counts: number[] = [];
  private head = 0;
  total = 0;

  /** Drops the runs stamped at or before `nowMs - RATE_WINDOW_MS`. */
  expire(nowMs: number): void {
    const cutoff = nowMs - RATE_WINDOW_MS;
    while (this.head < this.stamps.length && (this.stamps[this.head] as number) <= cutoff) {
      this.total -= this.counts[this.head] as number;
      this.head += 1;
    }
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.stamps.length) {
      this.stamps = this.stamps.slice(this.head);
      this.counts = this.counts.slice(this.head);
      this.head = 0;
    }
  }

  /** The stamp of the oldest counted request (undefined when none is counted). */
  oldest(): number | undefined {
    return this.head < this.stamps.length ? this.stamps[this.head] : undefined;
  }

  add(nowMs: number): void {
    const last = this.stamps.length - 1;
    const newest = last >= this.head ? (this.stamps[last] as number) : Number.NEGATIVE_INFINITY;
    if (nowMs <= newest) this.counts[last] = (this.counts[last] as number) + 1;
    else {
      this.stamps.push(nowMs);
      this.counts.push(1);
    }
    this.total += 1;
  }
}

export class RateLimitEnforcer {
  private windows = new Map<string, KeyWindow>();

  constructor(private readonly enforce: boolean) {}

  /** Counts the request (unless limited, or limits are off) and returns the verdict with its headers. */
  take(key: ApiKeyRecord, nowMs: number): RateVerdict {
    const limit = RATE_LIMITS[key.type];
    if (!this.enforce) return { limited: false, retryAfter: 0, headers: uncounted(limit, nowMs) };
    let window = this.windows.get(key.id);
    if (window === undefined) {
      window = new KeyWindow();
      this.windows.set(key.id, window);
    }
    window.expire(nowMs);
    const oldest = window.oldest();
    if (window.total >= limit && oldest !== undefined) {
      const freeAt = oldest + RATE_WINDOW_MS;
      return {
        limited: true,
        retryAfter: Math.max(1, Math.ceil((freeAt - nowMs) / 1000)),
        headers: headers(limit, 0, freeAt),
      };
    }
    window.add(nowMs);
    const first = window.oldest() ?? nowMs;
    return {
      limited: false,
      retryAfter: 0,
      headers: headers(limit, Math.max(0, limit - window.total), first + RATE_WINDOW_MS),
    };
  }

  /** Headers for a request without a valid key (nothing is counted): the default key limit. */
  anonymous(nowMs: number): Record<string, string> {
    return uncounted(RATE_LIMITS["read-write"], nowMs);
  }

  clear(): void {
    this.windows.clear();
  }
}

/** The headers of a request that counts nothing: the whole limit remains, reset a window from now. */
function uncounted(limit: number, nowMs: number): Record<string, string> {
  return headers(limit, limit, nowMs + RATE_WINDOW_MS);
}

function headers(limit: number, remaining: number, resetMs: number): Record<string, string> {
  return {
    "x-ratelimit-limit": String(limit),
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": String(Math.ceil(resetMs / 1000)),
  };
}
