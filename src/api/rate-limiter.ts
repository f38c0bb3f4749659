/**
 * Client-side sliding-window rate limiter, shared by every request of the process (one per API key).
 * Time comes only from the injected clock and sleep, so tests and benchmarks run on a virtual clock.
 */
import { RATE_LIMITS, RATE_WINDOW_MS } from "../contract/limits.js";
import type { RateLimitHeaders } from "./result.js";

/** Injected time source: milliseconds since the epoch. */
export interface Clock {
  now(): number;
}

/** Injected wait; resolves after `ms` of the clock's time. */
export type Sleep = (ms: number) => Promise<void>;

export interface RateLimiterOptions {
  readonly clock: Clock;
  readonly sleep: Sleep;
  /** Requests per window before any response said otherwise. Default: the contract's 100. */
  readonly initialLimit?: number;
  /** Window length. Default: the contract's 60 000 ms. */
  readonly windowMs?: number;
  /** Extra time a slot stays taken after its window, against clock skew. Default 50 ms. */
  readonly marginMs?: number;
}

/** What the limiter cost so far. */
export interface RateLimiterStats {
  /** The window size currently believed (adopted from `X-RateLimit-Limit`). */
  readonly limit: number;
  /** Total time callers were held back, in ms (waits are sequential, so this is wall/virtual time). */
  readonly waitMs: number;
  /** How many separate waits happened. */
  readonly waits: number;
  /** 429 responses reported to the limiter. */
  readonly throttled: number;
}

/**
 * A reserved slot. `settle` must be called exactly once when the request ends (response or failure):
 * it moves the slot's timestamp to that moment (the server counted the request by then) and lets the
 * limiter wait again. Later calls are ignored.
 */
export interface SlotTicket {
  settle(atMs: number): void;
}

interface Slot {
  at: number;
}

interface Waiter {
  resolve(ticket: SlotTicket): void;
  reject(error: unknown): void;
}

/**
 * Sliding-window limiter. Invariants: callers are served strictly first-in first-out; a slot is
 * reserved at the moment `acquire` resolves (the request is sent right after); at most `limit` slots
 * (own plus those inferred from other users of the key) fall in any window; only one wait is ever in
 * progress, so a virtual clock advances once per wait, not once per caller; and no wait starts while
 * a request is in flight, so a virtual clock never jumps ahead of a request the server has not yet
 * counted (and the wait is computed from settled, response-time slots).
 */
export class RateLimiter {
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly windowMs: number;
  private readonly marginMs: number;
  private limit: number;
  private slots: Slot[] = [];
  /** Expiry times of slots another user of the same key holds, inferred from X-RateLimit-Remaining. */
  private foreign: number[] = [];
  private blockedUntil = 0;
  private readonly queue: Waiter[] = [];
  private pumping = false;
  /** Slots handed out whose request has not ended yet. */
  private inFlight = 0;
  private idle: (() => void)[] = [];
  private waitMs = 0;
  private waits = 0;
  private throttled = 0;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock;
    this.sleep = options.sleep;
    this.limit = options.initialLimit ?? RATE_LIMITS["read-write"];
    this.windowMs = options.windowMs ?? RATE_WINDOW_MS;
    this.marginMs = options.marginMs ?? 50;
  }

  /** Waits (FIFO) for a free slot and reserves it. */
  acquire(): Promise<SlotTicket> {
    return new Promise<SlotTicket>((resolve, reject) => {
      this.queue.push({ resolve, reject });
      void this.pump();
    });
  }

  /**
   * Learns from a response's headers: adopts `X-RateLimit-Limit`, and when `Remaining` shows fewer
   * free slots than we believe, records the difference as slots held by someone else (another
   * process using the same key), the first until `Reset`, the rest spread up to a window from now.
   */
  observe(headers: RateLimitHeaders): void {
    const now = this.clock.now();
    if (headers.limit !== null && headers.limit > 0) this.limit = headers.limit;
    if (headers.remaining === null) return;
    this.prune(now);
    const believedFree = this.limit - this.slots.length - this.foreign.length;
    const deficit = believedFree - headers.remaining;
    if (deficit <= 0) return;
    // `Reset` is when the oldest counted request leaves the window; the others leave somewhere
    // between then and a full window from now. Assume they are spread evenly over that span.
    const latest = now + this.windowMs;
    const first =
      headers.resetAt === null ? latest : Math.min(latest, Math.max(now + 1, headers.resetAt * 1000));
    for (let i = 0; i < deficit; i++) {
      const share = deficit === 1 ? 0 : i / (deficit - 1);
      this.foreign.push(Math.round(first + (latest - first) * share) + this.marginMs);
    }
  }

  /** A 429 arrived: every caller waits until `retryAfterMs` from now. */
  throttle(retryAfterMs: number): void {
    this.throttled++;
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + Math.max(0, retryAfterMs));
  }

  stats(): RateLimiterStats {
    return { limit: this.limit, waitMs: this.waitMs, waits: this.waits, throttled: this.throttled };
  }

  private prune(now: number): void {
    const edge = now - this.windowMs - this.marginMs;
    this.slots = this.slots.filter((s) => s.at > edge);
    this.foreign = this.foreign.filter((expiry) => expiry > now);
  }

  /** Milliseconds until the head of the queue may go; 0 when a slot is free now. */
  private delayFor(now: number): number {
    this.prune(now);
    if (this.blockedUntil > now) return this.blockedUntil - now;
    const used = this.slots.length + this.foreign.length;
    if (used < this.limit) return 0;
    const expiries = [...this.slots.map((s) => s.at + this.windowMs + this.marginMs), ...this.foreign].sort(
      (a, b) => a - b,
    );
    const freeing = expiries[used - this.limit] ?? now + 1;
    return Math.max(1, freeing - now);
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let head = this.queue[0]; head !== undefined; head = this.queue[0]) {
        const now = this.clock.now();
        const delay = this.delayFor(now);
        if (delay > 0 && this.inFlight > 0) {
          await new Promise<void>((resolve) => this.idle.push(resolve));
          continue;
        }
        if (delay > 0) {
          this.waits++;
          this.waitMs += delay;
          await this.sleep(delay);
          continue;
        }
        const slot: Slot = { at: now };
        this.slots.push(slot);
        this.queue.shift();
        this.inFlight++;
        let settled = false;
        head.resolve({
          settle: (atMs) => {
            if (settled) return;
            settled = true;
            slot.at = Math.max(slot.at, atMs);
            this.inFlight--;
            if (this.inFlight === 0) for (const wake of this.idle.splice(0)) wake();
          },
        });
      }
    } catch (error) {
      for (const waiter of this.queue.splice(0)) waiter.reject(error);
    } finally {
      this.pumping = false;
    }
  }
}
