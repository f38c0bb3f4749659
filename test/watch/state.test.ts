/**
 * The pure parts of watch: the state a poll folds into (who is watched, what changed, a trip once
 * per project and run), the pace of the polls within the rate budget, and the pause's resend curve,
 * which must stay the one apply uses (the status layer cannot import apply).
 */
import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/contract/limits.js";
import { type ProjectFigures, ratesOf } from "../../src/status/figures.js";
import {
  DEFAULT_INTERVAL_MS,
  MIN_INTERVAL_MS,
  POLL_READS_PER_MINUTE,
  pollWaitMs,
} from "../../src/watch/watch-pace.js";
import {
  initialState,
  judgedOf,
  observe,
  stillSending,
  type WatchTarget,
} from "../../src/watch/watch-state.js";

const guarded: WatchTarget = { id: "p1", address: "guarded", guard: { maxFailureRate: 0.1, minSample: 10 } };
const bare: WatchTarget = { id: "p2", address: "bare", guard: null };
const idle: WatchTarget = { id: "p3", address: "idle", guard: { maxFailureRate: 0.1, minSample: 10 } };

function figures(id: string, status: string, sent: number, failed: number): ProjectFigures {
  const counters = {
    sent,
    delivered: sent - failed,
    failed,
    optedOut: 0,
    replies: 0,
    clicks: 0,
    uniqueClicks: 0,
    actualCostE4: sent * 100,
  };
  return {
    id,
    address: null,
    name: id,
    organizationId: "org",
    organizationName: "Org",
    status,
    source: "statistics",
    recipients: 100,
    estimatedCostE4: null,
    ...counters,
    rates: ratesOf(counters),
  };
}

const poll = (...fs: ProjectFigures[]) => new Map(fs.map((f) => [f.id, f]));

describe("observe", () => {
  it("watches what sends, reports changes only, and trips a guard once per run", () => {
    let state = initialState([guarded, bare, idle]);
    const first = observe(
      state,
      poll(figures("p1", "active", 5, 5), figures("p2", "active", 5, 5), figures("p3", "paused", 10, 9)),
    );
    expect(first.started.map((f) => f.target.address)).toEqual(["guarded", "bare"]);
    expect(first.changed.map((f) => f.target.address)).toEqual(["guarded", "bare"]);
    expect(first.trips).toEqual([]); // below the sample
    expect(judgedOf(first.state.get("p1") ?? fail())).toBe("below-sample");
    // Paused before the run with 9 of 10 failed: above its guard, but not watched, nothing done.
    expect(judgedOf(first.state.get("p3") ?? fail())).toBe("above");
    state = first.state;

    const same = observe(
      state,
      poll(figures("p1", "active", 5, 5), figures("p2", "active", 5, 5), figures("p3", "paused", 10, 9)),
    );
    expect(same.changed).toEqual([]);
    state = same.state;

    const tripped = observe(
      state,
      poll(figures("p1", "active", 20, 3), figures("p2", "active", 20, 20), figures("p3", "paused", 10, 9)),
    );
    expect(tripped.trips.map((t) => [t.target.address, t.trip.guard, t.trip.rate])).toEqual([
      ["guarded", "failure-rate", { numerator: 3, denominator: 20 }],
    ]);
    state = tripped.state;
    expect(judgedOf(state.get("p1") ?? fail())).toBe("tripped");
    expect(judgedOf(state.get("p2") ?? fail())).toBe("no-guard");

    // Still active and still above: never a second trip in this run.
    const again = observe(state, poll(figures("p1", "active", 40, 10)));
    expect(again.trips).toEqual([]);
    expect(again.changed.map((f) => f.target.address)).toEqual(["guarded"]);
    expect(stillSending(again.state)).toBe(2);

    const ended = observe(
      again.state,
      poll(figures("p1", "paused", 40, 10), figures("p2", "completed", 40, 40)),
    );
    expect(stillSending(ended.state)).toBe(0);
    expect(ended.changed.map((f) => f.target.address)).toEqual(["guarded", "bare"]);
  });

  it("does not watch a project paused at the start, nor judge it", () => {
    const first = observe(initialState([idle]), poll(figures("p3", "paused", 100, 90)));
    expect(first.trips).toEqual([]);
    expect(first.changed).toEqual([]);
    expect(first.state.get("p3")?.watched).toBe(false);
  });

  it("judges nothing on unknown counters", () => {
    const unknown = { ...figures("p1", "active", 0, 0), source: "detail" as const, sent: null, failed: null };
    expect(observe(initialState([guarded]), poll(unknown)).trips).toEqual([]);
  });
});

function fail(): never {
  throw new Error("missing project");
}

describe("the pace of the polls", () => {
  it.each([
    [DEFAULT_INTERVAL_MS, 1, 15_000],
    [MIN_INTERVAL_MS, 1, 5_000],
    [MIN_INTERVAL_MS, 4, 6_000],
    [DEFAULT_INTERVAL_MS, 10, 15_000],
    [DEFAULT_INTERVAL_MS, 20, 30_000],
    [60_000, 3, 60_000],
  ])("interval %s ms, %s reads: wait %s ms", (interval, reads, wait) => {
    expect(pollWaitMs(interval, reads)).toBe(wait);
  });

  it("never lets the polls use more than their share of the key's 100 a minute", () => {
    expect(POLL_READS_PER_MINUTE).toBeLessThan(RATE_LIMITS["read-write"] / 2);
    for (let reads = 1; reads <= 200; reads++) {
      const perMinute = (reads * 60_000) / pollWaitMs(MIN_INTERVAL_MS, reads);
      expect(perMinute).toBeLessThanOrEqual(POLL_READS_PER_MINUTE);
    }
  });
});
