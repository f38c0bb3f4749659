/**
 * Per-key 60-second sliding window on the virtual clock (contract Limits): 100, 60 or 30 requests
 * by key type. Every admitted request counts; rejected (429) requests do not. Headers report the
 * key's exact limit, what remains after this request, and the Unix second at which the oldest
 * counted request leaves the window.
 */
import { RATE_LIMITS, RATE_WINDOW_MS } from "../../contract/limits.js";
import type { ApiKeyRecord } from "../state/world.js";

export interface RateVerdict {
  readonly limited: boolean;
  readonly retryAfter: number;
  readonly headers: Record<string, string>;
}

export class RateLimiter {
  private windows = new Map<string, number[]>();

  constructor(private readonly enforce: boolean) {}

  /** Counts the request (unless limited) and returns the verdict with its headers. */
  take(key: ApiKeyRecord, nowMs: number): RateVerdict {
    const limit = RATE_LIMITS[key.type];
    const window = (this.windows.get(key.id) ?? []).filter((t) => t > nowMs - RATE_WINDOW_MS);
    this.windows.set(key.id, window);
    const oldest = window[0];
    if (this.enforce && window.length >= limit && oldest !== undefined) {
      const freeAt = oldest + RATE_WINDOW_MS;
      return {
        limited: true,
        retryAfter: Math.max(1, Math.ceil((freeAt - nowMs) / 1000)),
        headers: headers(limit, 0, freeAt),
      };
    }
    window.push(nowMs);
    const first = window[0] ?? nowMs;
    return {
      limited: false,
      retryAfter: 0,
      headers: headers(limit, Math.max(0, limit - window.length), first + RATE_WINDOW_MS),
    };
  }

  /** Headers for a request without a valid key (nothing is counted): the default key limit. */
  anonymous(nowMs: number): Record<string, string> {
    const limit = RATE_LIMITS["read-write"];
    return headers(limit, limit, nowMs + RATE_WINDOW_MS);
  }

  clear(): void {
    this.windows.clear();
  }
}

function headers(limit: number, remaining: number, resetMs: number): Record<string, string> {
  return {
    "x-ratelimit-limit": String(limit),
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": String(Math.ceil(resetMs / 1000)),
  };
}
