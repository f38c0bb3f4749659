/**
 * Client-side sliding-window rate limiter, shared by every request of the process (one per API key).
 * Time comes only from the injected clock and sleep, so tests and benchmarks run on a virtual clock.
 */
import { RATE_LIMITS, RATE_WINDOW_MS } from "../contract/limits.js";
import {
  judgeWait,
  RATE_LIMIT_NOTICE_MS,
  type RateLimitStall,
  type RateLimitWait,
  type RateLimitWaitCause,
} from "./rate-limit-bounds.js";
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

/**
 * What `acquire` gives: a slot, or the stall that ended the wait for one (see `rate-limit-bounds.ts`);
 * the request is then not sent.
 */
export type Acquired =
  | { readonly ok: true; readonly ticket: SlotTicket }
  | { readonly ok: false; readonly stall: RateLimitStall };

/** Hears a wait of at least `RATE_LIMIT_NOTICE_MS` about to start for the caller's request. */
export type WaitListener = (wait: RateLimitWait) => void;

interface Slot {
  at: number;
}

interface Waiter {
  resolve(acquired: Acquired): void;
  reject(error: unknown): void;
  onWait: WaitListener | undefined;
}

/** How long the head of the queue must wait, and why. */
interface Delay {
  readonly ms: number;
  readonly cause: RateLimitWaitCause;
}

/** The waits of the request at the head of the queue so far. */
interface HeadWaits {
  waiter: Waiter;
  sleptMs: number;
  startedAt: number;
}

/**
 * Sliding-window limiter. Invariants: callers are served strictly first-in first-out; a slot is
 * reserved at the moment `acquire` resolves (the request is sent right after); at most `limit` slots
 * (own plus those inferred from other users of the key) fall in any window; only one wait is ever in
 * progress, so a virtual clock advances once per wait, not once per caller; and no wait starts while
 * a request is in flight, so a virtual clock never jumps ahead of a request the server has not yet
 * counted (and the wait is computed from settled, response-time slots). The waits of one request
 * are bounded (`judgeWait`, `rate-limit-bounds.ts`): past the bound that request and every one
 * queued behind it get the stall instead of a slot, so a run whose waits no reset will end ends with
 * an error instead of waiting for ever. A clock that does not move stalls the limiter for good
 * (every later request is refused at once); a `Retry-After` of hours refuses every request until it
 * is over.
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
  /** Set once a wait was refused because the clock did not move: every request from then on gets it. */
  private stalled: RateLimitStall | null = null;
  private head: HeadWaits | null = null;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock;
    this.sleep = options.sleep;
    this.limit = options.initialLimit ?? RATE_LIMITS["read-write"];
    this.windowMs = options.windowMs ?? RATE_WINDOW_MS;
    this.marginMs = options.marginMs ?? 50;
  }

  /**
   * Waits (FIFO) for a free slot and reserves it, or gives the stall that ended the wait. `onWait`
   * hears each wait of at least `RATE_LIMIT_NOTICE_MS` about to start while this request is first
   * in line.
   */
  acquire(onWait?: WaitListener): Promise<Acquired> {
    return new Promise<Acquired>((resolve, reject) => {
      if (this.stalled !== null) {
        resolve({ ok: false, stall: this.stalled });
        return;
      }
      this.queue.push({ resolve, reject, onWait });
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

  /** How long until the head of the queue may go (`ms` 0 when a slot is free now), and why. */
  private delayFor(now: number): Delay {
    this.prune(now);
    if (this.blockedUntil > now) return { ms: this.blockedUntil - now, cause: "retry-after" };
    const used = this.slots.length + this.foreign.length;
    if (used < this.limit) return { ms: 0, cause: "window" };
    const expiries = [...this.slots.map((s) => s.at + this.windowMs + this.marginMs), ...this.foreign].sort(
      (a, b) => a - b,
    );
    const freeing = expiries[used - this.limit] ?? now + 1;
    // Our own requests alone would leave a slot free: the wait is for another user's (`Remaining`).
    return { ms: Math.max(1, freeing - now), cause: this.slots.length < this.limit ? "remaining" : "window" };
  }

  /** The head waits `delay` (announced when long), or the limiter stalls when the bound refuses it. */
  private async wait(head: Waiter, now: number, delay: Delay): Promise<void> {
    if (this.head?.waiter !== head) this.head = { waiter: head, sleptMs: 0, startedAt: now };
    const stall = judgeWait(delay.cause, delay.ms, this.head.sleptMs, now - this.head.startedAt);
    if (stall !== null) {
      // A clock that does not move stays stuck: every later request is refused at once. A wait
      // too long is the 429's hold, which every request meets until it is over (delayFor). A key
      // kept full for two windows on a clock that moves refuses the requests waiting now; a later
      // one (watch's next poll) waits again.
      if (stall.reason === "clock-stuck") this.stalled = stall;
      this.head = null;
      for (const waiter of this.queue.splice(0)) waiter.resolve({ ok: false, stall });
      return;
    }
    if (delay.ms >= RATE_LIMIT_NOTICE_MS)
      head.onWait?.({ cause: delay.cause, ms: delay.ms, untilMs: now + delay.ms });
    this.head.sleptMs += delay.ms;
    this.waits++;
    this.waitMs += delay.ms;
    await this.sleep(delay.ms);
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let head = this.queue[0]; head !== undefined; head = this.queue[0]) {
        const now = this.clock.now();
        const delay = this.delayFor(now);
        if (delay.ms > 0 && this.inFlight > 0) {
          await new Promise<void>((resolve) => this.idle.push(resolve));
          continue;
        }
        if (delay.ms > 0) {
          await this.wait(head, now, delay);
          continue;
        }
        this.head = null;
        const slot: Slot = { at: now };
        this.slots.push(slot);
        this.queue.shift();
        this.inFlight++;
        let settled = false;
        head.resolve({
          ok: true,
          ticket: {
            settle: (atMs) => {
              if (settled) return;
              settled = true;
              slot.at = Math.max(slot.at, atMs);
              this.inFlight--;
              if (this.inFlight === 0) for (const wake of this.idle.splice(0)) wake();
            },
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
