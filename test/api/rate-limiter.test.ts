import { describe, expect, it } from "vitest";
import { judgeWait, RATE_LIMIT_MAX_WAIT_MS, RateLimiter, type SlotTicket } from "../../src/api/index.js";

/** A fake clock whose sleep advances time and records every wait. */
function fakeTime(start = 1_000_000) {
  let t = start;
  const sleeps: number[] = [];
  return {
    clock: { now: () => t },
    sleep: async (ms: number) => {
      sleeps.push(ms);
      // Let everything already released run first, as a real or virtual timer would.
      await new Promise((resolve) => setImmediate(resolve));
      t += ms;
    },
    sleeps,
    elapsed: () => t - start,
  };
}

/** Acquires a slot, failing the test on a stall. */
async function slot(limiter: RateLimiter): Promise<SlotTicket> {
  const acquired = await limiter.acquire();
  if (!acquired.ok) throw new Error(`stalled: ${JSON.stringify(acquired.stall)}`);
  return acquired.ticket;
}

/** Acquires a slot for a request that ends at once (settling at an earlier time keeps the send time). */
async function take(limiter: RateLimiter): Promise<void> {
  (await slot(limiter)).settle(0);
}

const noHeaders = { limit: null, remaining: null, resetAt: null };

describe("RateLimiter", () => {
  it("lets `limit` requests through a window, then waits for the oldest slot to expire", async () => {
    const time = fakeTime();
    const limiter = new RateLimiter({ ...time, initialLimit: 5, windowMs: 60_000, marginMs: 0 });
    for (let i = 0; i < 5; i++) await take(limiter);
    expect(time.sleeps).toEqual([]);
    await take(limiter);
    expect(time.sleeps).toEqual([60_000]);
    expect(limiter.stats()).toMatchObject({ waitMs: 60_000, waits: 1, limit: 5 });
  });

  it("sends 150 concurrent callers in about one window at a limit of 100, one wait at a time", async () => {
    const time = fakeTime();
    const limiter = new RateLimiter({ ...time, marginMs: 50 });
    const sentAt: number[] = [];
    await Promise.all(
      Array.from({ length: 150 }, async () => {
        await take(limiter);
        sentAt.push(time.clock.now());
      }),
    );
    expect(time.sleeps).toEqual([60_050]);
    expect(time.elapsed()).toBe(60_050);
    // No 60-second window holds more than 100 sends.
    for (const t of sentAt)
      expect(sentAt.filter((s) => s > t - 60_000 && s <= t).length).toBeLessThanOrEqual(100);
  });

  it("serves concurrent callers first in, first out", async () => {
    const time = fakeTime();
    const limiter = new RateLimiter({ ...time, initialLimit: 2, windowMs: 1_000, marginMs: 0 });
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, async (_, i) => {
        await take(limiter);
        order.push(i);
      }),
    );
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(time.sleeps).toEqual([1_000, 1_000, 1_000]);
  });

  it("adopts X-RateLimit-Limit from a response", async () => {
    const time = fakeTime();
    const limiter = new RateLimiter({ ...time, marginMs: 0 });
    await take(limiter);
    limiter.observe({ limit: 3, remaining: 2, resetAt: null });
    await take(limiter);
    await take(limiter);
    expect(time.sleeps).toEqual([]);
    await take(limiter);
    expect(time.sleeps).toEqual([60_000]);
    expect(limiter.stats().limit).toBe(3);
  });

  it("holds back when X-RateLimit-Remaining shows another user of the key", async () => {
    const time = fakeTime(0);
    const limiter = new RateLimiter({ ...time, initialLimit: 10, marginMs: 0 });
    await take(limiter);
    // We hold 1 slot and believe 9 are free; the server says 0 remain until t = 20 s.
    limiter.observe({ limit: 10, remaining: 0, resetAt: 20 });
    await take(limiter);
    expect(time.sleeps).toEqual([20_000]);
  });

  it("ignores headers that show more room than it believes", async () => {
    const time = fakeTime();
    const limiter = new RateLimiter({ ...time, initialLimit: 2, marginMs: 0 });
    await take(limiter);
    await take(limiter);
    limiter.observe({ ...noHeaders, remaining: 50 });
    await take(limiter);
    expect(time.sleeps).toEqual([60_000]);
  });

  it("counts a slot from when its response arrived", async () => {
    const time = fakeTime(0);
    const limiter = new RateLimiter({ ...time, initialLimit: 1, marginMs: 0 });
    const ticket = await slot(limiter); // settled by hand below
    ticket.settle(5_000);
    await take(limiter);
    expect(time.sleeps).toEqual([65_000]);
  });

  it("blocks every caller after a 429 until Retry-After passes", async () => {
    const time = fakeTime();
    const limiter = new RateLimiter({ ...time, marginMs: 0 });
    await take(limiter);
    limiter.throttle(7_000);
    await Promise.all([take(limiter), take(limiter)]);
    expect(time.sleeps).toEqual([7_000]);
    expect(limiter.stats()).toMatchObject({ throttled: 1, waitMs: 7_000 });
  });
});

describe("RateLimiter inferring another user of the key", () => {
  it("frees inferred slots from Reset onwards, not all at once", async () => {
    const time = fakeTime(0);
    const limiter = new RateLimiter({ ...time, initialLimit: 4, marginMs: 0 });
    // Nothing of ours in flight; the server says no slot remains and the oldest frees at 30 s.
    limiter.observe({ limit: 4, remaining: 0, resetAt: 30 });
    await take(limiter);
    expect(time.sleeps).toEqual([30_000]);
    await take(limiter);
    expect(time.sleeps).toEqual([30_000, 10_000]);
  });
});

describe("RateLimiter and requests in flight", () => {
  it("does not start a wait while a request is in flight, and counts that slot from its end", async () => {
    const time = fakeTime(0);
    const limiter = new RateLimiter({ ...time, initialLimit: 1, marginMs: 0 });
    const ticket = await slot(limiter);
    let second = false;
    const next = slot(limiter).then((t) => {
      second = true;
      t.settle(time.clock.now());
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(time.sleeps).toEqual([]);
    expect(second).toBe(false);
    ticket.settle(2_000);
    await next;
    expect(time.sleeps).toEqual([62_000]);
  });
});

describe("the bound of one request's waits (rate-limit-bounds.ts)", () => {
  it("is two of the contract's 60-second windows", () => {
    expect(RATE_LIMIT_MAX_WAIT_MS).toBe(120_000);
  });

  it("allows a window and a little more, refuses a wait asked beyond the bound, and waits adding up past it", () => {
    // A window and the margin, then a slot freed a millisecond late: an ordinary wait.
    expect(judgeWait("window", 60_050, 0, 0)).toBeNull();
    expect(judgeWait("window", 1, 60_050, 60_049)).toBeNull();
    expect(judgeWait("retry-after", 120_000, 0, 0)).toBeNull();
    expect(judgeWait("retry-after", 120_001, 0, 0)).toMatchObject({ reason: "too-long", askedMs: 120_001 });
    expect(judgeWait("remaining", 60_050, 60_050, 0)).toMatchObject({
      reason: "clock-stuck",
      waitedMs: 60_050,
      clockMovedMs: 0,
    });
  });

  it("names a stall by the clock: one that moved less than half the time waited is stuck, one that kept pace saw the key stay full", () => {
    expect(judgeWait("remaining", 20_000, 100_000, 100_000)).toBeNull();
    expect(judgeWait("remaining", 60_050, 100_000, 50_000)).toMatchObject({ reason: "window-stuck" });
    expect(judgeWait("remaining", 60_050, 100_000, 49_999)).toMatchObject({ reason: "clock-stuck" });
    // A single wait asked beyond the bound is refused on any clock.
    expect(judgeWait("retry-after", 120_001, 0, 0)).toMatchObject({ reason: "too-long" });
  });

  it("a key kept full on a clock that keeps pace: the waiting requests end at the bound (window-stuck), a later one waits again", async () => {
    let t = 0;
    const sleeps: number[] = [];
    let refills = 3;
    const limiter = new RateLimiter({
      clock: { now: () => t },
      sleep: async (ms) => {
        sleeps.push(ms);
        t += ms;
        // Another user of the key (or a server whose clock does not move) keeps it full.
        if (refills-- > 0) limiter.observe({ limit: 1, remaining: 0, resetAt: (t + 60_000) / 1000 });
      },
      initialLimit: 1,
      marginMs: 0,
    });
    await take(limiter);
    const stuck = await limiter.acquire();
    expect(stuck.ok ? null : stuck.stall).toMatchObject({ reason: "window-stuck" });
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(RATE_LIMIT_MAX_WAIT_MS);
    // Not refused for good: the next request waits for the slot the other user freed.
    const later = await limiter.acquire();
    expect(later.ok).toBe(true);
  });

  it("a slow clock (a tenth of the time waited): the waits end at the bound, the limiter refuses from then on", async () => {
    let t = 0;
    const sleeps: number[] = [];
    const limiter = new RateLimiter({
      clock: { now: () => t },
      sleep: async (ms) => {
        sleeps.push(ms);
        t += ms / 10;
      },
      initialLimit: 1,
      marginMs: 0,
    });
    await take(limiter);
    const stuck = await limiter.acquire();
    expect(stuck.ok).toBe(false);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(RATE_LIMIT_MAX_WAIT_MS);
    expect(stuck.ok ? null : stuck.stall).toMatchObject({ reason: "clock-stuck", cause: "window" });
    const later = await limiter.acquire();
    expect(later.ok).toBe(false);
    expect(sleeps.length).toBeGreaterThan(1);
    const count = sleeps.length;
    await limiter.acquire();
    expect(sleeps).toHaveLength(count);
  });
});
