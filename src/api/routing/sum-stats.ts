/**
 * The statistics of a session's several clients (one per key): added up, and the busiest key's
 * requests (a budget that holds per key).
 */
import type { ApiClient } from "../client.js";
import type { RateLimiterStats } from "../rate-limiter.js";
import type { ApiClientStats } from "../stats.js";

/**
 * A counter of the busiest key's requests, for a budget that holds per key (watch's 40 a minute):
 * on each call, each client's requests since the last call, the largest of them added to a running
 * total. Over any span between two calls the total grows at least as much as any one key's requests
 * did, so a budget kept on it is never exceeded by any key. With one client it is that client's count.
 */
export function busiestKeyRequests(clients: () => readonly ApiClient[]): () => number {
  const seen = new Map<ApiClient, number>();
  let total = 0;
  return () => {
    let most = 0;
    for (const client of clients()) {
      const now = client.stats().requests;
      most = Math.max(most, now - (seen.get(client) ?? 0));
      seen.set(client, now);
    }
    total += most;
    return total;
  };
}

/** The statistics of several clients, added up (the limiters' `limit`: their sum, the run's capacity). */
export function sumStats(all: readonly ApiClientStats[]): ApiClientStats {
  const add = (a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) => {
    const out: Record<string, number> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const [head, ...rest] = all;
  if (head === undefined) return NO_STATS;
  return rest.reduce<ApiClientStats>((a, b) => {
    const limiter: RateLimiterStats = {
      limit: a.rateLimiter.limit + b.rateLimiter.limit,
      waitMs: a.rateLimiter.waitMs + b.rateLimiter.waitMs,
      waits: a.rateLimiter.waits + b.rateLimiter.waits,
      throttled: a.rateLimiter.throttled + b.rateLimiter.throttled,
    };
    const byEndpoint = add(a.byEndpoint, b.byEndpoint);
    return {
      calls: a.calls + b.calls,
      requests: a.requests + b.requests,
      byEndpoint: Object.fromEntries(
        Object.entries(byEndpoint).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
      ),
      retries: a.retries + b.retries,
      retriesByReason: add(a.retriesByReason, b.retriesByReason) as ApiClientStats["retriesByReason"],
      throttled: a.throttled + b.throttled,
      queuedMs: a.queuedMs + b.queuedMs,
      retryWaitMs: a.retryWaitMs + b.retryWaitMs,
      failures: a.failures + b.failures,
      rateLimiter: limiter,
    };
  }, head);
}

/** The statistics of no client (a router before its first route, without a default key). */
const NO_STATS: ApiClientStats = {
  calls: 0,
  requests: 0,
  byEndpoint: {},
  retries: 0,
  retriesByReason: {
    "rate-limited": 0,
    "in-progress": 0,
    "enqueue-failed": 0,
    "server-error": 0,
    network: 0,
  },
  throttled: 0,
  queuedMs: 0,
  retryWaitMs: 0,
  failures: 0,
  rateLimiter: { limit: 0, waitMs: 0, waits: 0, throttled: 0 },
};
