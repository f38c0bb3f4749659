/**
 * Request accounting of one client, exposed as data (`client.stats()`): what `plan` says it read and
 * what `apply` reports the rate limit cost.
 */
import type { RateLimiterStats } from "./rate-limiter.js";
import type { RetryReason } from "./retry-policy.js";

/**
 * Snapshot of a client's statistics. Invariants: `requests` equals the sum of `byEndpoint`; every
 * count includes retries (an attempt is a request); `retries` equals the sum of `retriesByReason`.
 */
export interface ApiClientStats {
  /** Client calls made (one per endpoint function invocation). */
  readonly calls: number;
  /** HTTP requests sent, including retries. */
  readonly requests: number;
  /** HTTP requests sent per route template (`GET /projects/{id}`), sorted by route. */
  readonly byEndpoint: Readonly<Record<string, number>>;
  readonly retries: number;
  readonly retriesByReason: Readonly<Record<RetryReason, number>>;
  /** 429 responses received. */
  readonly throttled: number;
  /** Sum over calls of the time each spent queued for a rate-limit slot (overlaps when concurrent). */
  readonly queuedMs: number;
  /** Time slept before retries other than 429 (backoff, 409 Retry-After). */
  readonly retryWaitMs: number;
  /** Calls that ended in an error. */
  readonly failures: number;
  /** The shared limiter's own accounting (process-wide when shared by several clients). */
  readonly rateLimiter: RateLimiterStats;
}

/** Mutable counters behind {@link ApiClientStats}. */
export class StatsCollector {
  calls = 0;
  requests = 0;
  retries = 0;
  throttled = 0;
  queuedMs = 0;
  retryWaitMs = 0;
  failures = 0;
  private readonly endpoints = new Map<string, number>();
  private readonly reasons: Record<RetryReason, number> = {
    "rate-limited": 0,
    "in-progress": 0,
    "enqueue-failed": 0,
    "server-error": 0,
    network: 0,
  };

  countRequest(route: string): void {
    this.requests++;
    this.endpoints.set(route, (this.endpoints.get(route) ?? 0) + 1);
  }

  countRetry(reason: RetryReason): void {
    this.retries++;
    this.reasons[reason]++;
  }

  snapshot(rateLimiter: RateLimiterStats): ApiClientStats {
    const byEndpoint = Object.fromEntries(
      [...this.endpoints.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    return {
      calls: this.calls,
      requests: this.requests,
      byEndpoint,
      retries: this.retries,
      retriesByReason: { ...this.reasons },
      throttled: this.throttled,
      queuedMs: this.queuedMs,
      retryWaitMs: this.retryWaitMs,
      failures: this.failures,
      rateLimiter,
    };
  }
}
