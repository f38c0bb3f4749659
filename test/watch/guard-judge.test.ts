/**
 * Guards judged on figures, at their boundaries: the sample, a rate equal to its threshold (no trip)
 * and one count above it (trip), thresholds compared exactly as the decimals the file wrote, rates
 * with the definitions of `status` (failure over sent, opt-out over delivered); and the pause reason:
 * its prefix, the guard and figures it names, its length within the contract's 100 characters.
 */
import { describe, expect, it } from "vitest";
import type { GuardSpec } from "../../src/campaign/model.js";
import { GUARD_PAUSE_REASON_PREFIX } from "../../src/contract/guard-reason.js";
import { PAUSE_REASON_MAX } from "../../src/contract/limits.js";
import { decimalOf, exceeds, type GuardFigures, judgeGuard } from "../../src/watch/guard-judge.js";
import { guardPauseReason, limitPercent, tripRatePercent } from "../../src/watch/guard-reason.js";

const figures = (sent: number, failed: number, delivered = sent - failed, optedOut = 0): GuardFigures => ({
  sent,
  delivered,
  failed,
  optedOut,
});

const FAIL_5: GuardSpec = { maxFailureRate: 0.05, minSample: 100 };
const OPT_2: GuardSpec = { maxOptOutRate: 0.02, minSample: 100 };
const BOTH: GuardSpec = { maxFailureRate: 0.05, maxOptOutRate: 0.02, minSample: 100 };

describe("judgeGuard", () => {
  it.each([
    ["nothing sent", FAIL_5, figures(0, 0), "below-sample"],
    ["one below the sample, all failed", FAIL_5, figures(99, 99), "below-sample"],
    ["at the sample, at the threshold (5 of 100)", FAIL_5, figures(100, 5), "within"],
    ["at the sample, one above (6 of 100)", FAIL_5, figures(100, 6), "tripped"],
    ["25 of 500 is exactly 5%: no trip", FAIL_5, figures(500, 25), "within"],
    ["26 of 500 is above 5%", FAIL_5, figures(500, 26), "tripped"],
    ["36 of 500 (7.2%)", FAIL_5, figures(500, 36), "tripped"],
    ["opt-out over delivered: 2 of 100 delivered is 2%", OPT_2, figures(120, 20, 100, 2), "within"],
    ["opt-out over delivered: 3 of 100 delivered", OPT_2, figures(120, 20, 100, 3), "tripped"],
    [
      "opt-out over delivered, not over sent: 3 of 150 sent but 3 of 100 delivered",
      OPT_2,
      figures(150, 50, 100, 3),
      "tripped",
    ],
    ["nothing delivered: no opt-out rate", OPT_2, figures(200, 200, 0, 0), "within"],
    [
      "a zero threshold trips on the first failure",
      { maxFailureRate: 0, minSample: 1 },
      figures(1, 1),
      "tripped",
    ],
    [
      "a zero threshold holds without failures",
      { maxFailureRate: 0, minSample: 1 },
      figures(10, 0),
      "within",
    ],
    ["a threshold of 1 never trips", { maxFailureRate: 1, minSample: 1 }, figures(10, 10), "within"],
    [
      "min_sample 1 judges the first message",
      { maxFailureRate: 0.5, minSample: 1 },
      figures(1, 1),
      "tripped",
    ],
  ] as const)("%s", (_name, guard, f, kind) => {
    expect(judgeGuard(f, guard).kind).toBe(kind);
  });

  it("gives the sample still needed", () => {
    expect(judgeGuard(figures(40, 3), FAIL_5)).toEqual({ kind: "below-sample", sent: 40, minSample: 100 });
  });

  it("does not judge unknown counters", () => {
    expect(judgeGuard({ sent: null, delivered: null, failed: null, optedOut: null }, BOTH)).toEqual({
      kind: "unknown",
    });
  });

  it("lists every trip, failure rate first, with its exact counts", () => {
    const verdict = judgeGuard(figures(500, 36, 464, 10), BOTH);
    expect(verdict).toEqual({
      kind: "tripped",
      trips: [
        { guard: "failure-rate", rate: { numerator: 36, denominator: 500 }, limit: 0.05 },
        { guard: "opt-out-rate", rate: { numerator: 10, denominator: 464 }, limit: 0.02 },
      ],
    });
  });
});

describe("exact thresholds", () => {
  it.each([
    [0.05, 5n, 100n],
    [0.1, 1n, 10n],
    [0.025, 25n, 1000n],
    [1, 1n, 1n],
    [0, 0n, 1n],
    [1e-7, 1n, 10_000_000n],
    [0.3, 3n, 10n],
  ])("%s is %s/%s", (value, numerator, denominator) => {
    expect(decimalOf(value)).toEqual({ numerator, denominator });
  });

  it.each([
    // Floating point says 0.1 * 3 > 0.3; the file's 0.3 is 3/10 and 3 of 10 is not above it.
    [3, 10, 0.3, false],
    [7, 100, 0.07, false],
    [29, 100, 0.29, false],
    [57, 100, 0.57, false],
    [58, 100, 0.57, true],
    [1, 3, 0.3333, true],
    [1, 3, 0.3334, false],
  ])("%s/%s > %s is %s", (numerator, denominator, limit, expected) => {
    expect(exceeds({ numerator, denominator }, limit)).toBe(expected);
  });
});

describe("the pause reason", () => {
  it.each([
    [
      { maxFailureRate: 0.05, minSample: 100 },
      figures(500, 36),
      "guard: failure rate 7.2% > 5% (36 of 500 sent)",
    ],
    [
      { maxOptOutRate: 0.02, minSample: 100 },
      figures(500, 20, 480, 15),
      "guard: opt-out rate 3.1% > 2% (15 of 480 delivered)",
    ],
    // 5.04% would read 5.0% at one decimal: more decimals until it reads above the threshold.
    [
      { maxFailureRate: 0.05, minSample: 100 },
      figures(2500, 126),
      "guard: failure rate 5.04% > 5% (126 of 2,500 sent)",
    ],
    [
      { maxFailureRate: 0.025, minSample: 10 },
      figures(1000, 30),
      "guard: failure rate 3.0% > 2.5% (30 of 1,000 sent)",
    ],
    [
      { maxFailureRate: 0, minSample: 1 },
      figures(1_234_567, 1),
      "guard: failure rate 0.0001% > 0% (1 of 1,234,567 sent)",
    ],
  ] as const)("%j on %j", (guard, f, reason) => {
    const verdict = judgeGuard(f, guard);
    if (verdict.kind !== "tripped") throw new Error(`expected a trip, got ${verdict.kind}`);
    expect(guardPauseReason(verdict.trips[0])).toBe(reason);
  });

  it("starts with the prefix plan recognises and stays within 100 characters at the largest counts", () => {
    const big = Number.MAX_SAFE_INTEGER;
    for (const trip of [
      { guard: "failure-rate", rate: { numerator: big, denominator: big }, limit: 0.999999 },
      { guard: "opt-out-rate", rate: { numerator: 1, denominator: big }, limit: 0 },
    ] as const) {
      const reason = guardPauseReason(trip);
      expect(reason.startsWith(GUARD_PAUSE_REASON_PREFIX)).toBe(true);
      expect(reason.length).toBeGreaterThan(GUARD_PAUSE_REASON_PREFIX.length);
      expect(reason.length).toBeLessThanOrEqual(PAUSE_REASON_MAX);
    }
  });

  it.each([
    [0.05, "5%"],
    [0.025, "2.5%"],
    [0.0005, "0.05%"],
    [1, "100%"],
    [0, "0%"],
    [0.123456, "12.3456%"],
  ])("threshold %s reads %s", (limit, text) => {
    expect(limitPercent(limit)).toBe(text);
  });

  it("shows a rate just above its threshold with enough decimals", () => {
    expect(
      tripRatePercent({
        guard: "failure-rate",
        rate: { numerator: 50_001, denominator: 1_000_000 },
        limit: 0.05,
      }),
    ).toBe("5.0001%");
  });
});
