/**
 * The experiment statistics, figure by figure (values computed independently from the formulas in
 * docs/experiments.md), and the verdict rule's error rates on the sandbox's own seeded draws: an A/A
 * test read at every 100 deliveries past its minimum sample names no winner in at least 95 of 100
 * seeds; 4 % against 8 % names the 8 % arm.
 */
import { afterAll, describe, expect, test } from "vitest";
import {
  type Count,
  requiredPerArm,
  sequentialTest,
  twoProportionZ,
  wilson,
  Z_95,
} from "../../src/experiments/statistics.js";
import { type ArmCounters, about, decideVerdict } from "../../src/experiments/verdict.js";
import { drawOutcome } from "../../src/sandbox/simulation/outcomes.js";
import { DEFAULT_SETTINGS } from "../../src/sandbox/simulation/settings.js";

describe("statistics: exact figures", () => {
  test("Wilson 95 % intervals, including at 0 % and 100 %", () => {
    const a = wilson({ successes: 40, trials: 1000 });
    expect(a?.low).toBeCloseTo(0.029511, 6);
    expect(a?.high).toBeCloseTo(0.05401, 5);
    const b = wilson({ successes: 80, trials: 1000 });
    expect(b?.low).toBeCloseTo(0.064748, 6);
    expect(b?.high).toBeCloseTo(0.098466, 6);
    expect(wilson({ successes: 0, trials: 10 })).toEqual({ low: 0, high: expect.closeTo(0.277533, 6) });
    expect(wilson({ successes: 10, trials: 10 })?.low).toBeCloseTo(0.722467, 6);
    expect(wilson({ successes: 0, trials: 0 })).toBeNull();
  });

  test("the pooled two-proportion z", () => {
    expect(twoProportionZ({ successes: 40, trials: 1000 }, { successes: 80, trials: 1000 })).toBeCloseTo(
      3.766218,
      6,
    );
    expect(twoProportionZ({ successes: 0, trials: 10 }, { successes: 0, trials: 10 })).toBeNull();
  });

  test("the sequential test's always-valid p-values", () => {
    const p = (a: number, b: number) =>
      sequentialTest({ successes: a, trials: 1000 }, { successes: b, trials: 1000 }, 1000)?.p;
    expect(p(40, 80)).toBeCloseTo(0.0052554, 7);
    expect(p(40, 60)).toBeCloseTo(0.489227, 6);
    expect(p(50, 50)).toBe(1);
  });

  test("the deliveries per arm a difference needs", () => {
    expect(requiredPerArm(0.04, 0.08, 1000)).toBe(652);
    expect(requiredPerArm(0.04, 0.05, 1000)).toBe(9139);
    expect(requiredPerArm(0.05, 0.05, 1000)).toBeNull();
  });

  test("counts in words", () => {
    expect([about(7), about(420), about(413), about(12_345)]).toEqual(["7", "420", "420", "12,350"]);
  });
});

const counters = (delivered: number, replies: number, optedOut = 0): ArmCounters => ({
  sent: delivered,
  delivered,
  replies,
  optedOut,
  uniqueClicks: 0,
});

describe("the verdict in words", () => {
  test("before the minimum sample: the leader and the deliveries still needed", () => {
    const v = decideVerdict("reply_rate", 1000, [
      { name: "a", counters: counters(580, 23) },
      { name: "b", counters: counters(600, 48) },
    ]);
    expect(v.kind).toBe("undecided");
    expect(v.words).toBe("b leads, not yet decided: about 420 more deliveries per arm");
    expect(v.arms.map((a) => a.rate)).toEqual([23 / 580, 48 / 600]);
  });

  test("a significant difference at the minimum sample is a winner; the same counts earlier are not", () => {
    const arms = [
      { name: "a", counters: counters(1000, 40) },
      { name: "b", counters: counters(1000, 80) },
    ];
    expect(decideVerdict("reply_rate", 1000, arms).words).toBe("b wins (p < 0.05)");
    expect(decideVerdict("reply_rate", 1001, arms).words).toBe(
      "b leads, not yet decided: about 1 more delivery per arm",
    );
  });

  test("an opt-out rate is better low; a tie leads nobody; a small difference is no difference", () => {
    const optOut = decideVerdict("opt_out_rate", 1000, [
      { name: "a", counters: counters(1000, 0, 60) },
      { name: "b", counters: counters(1000, 0, 20) },
    ]);
    expect(optOut.words).toBe("b wins (p < 0.05)");
    const even = decideVerdict("reply_rate", 1000, [
      { name: "a", counters: counters(10, 1) },
      { name: "b", counters: counters(10, 1) },
    ]);
    expect(even.words).toBe("not yet decided: about 990 more deliveries per arm");
    const close = decideVerdict("reply_rate", 1000, [
      { name: "a", counters: counters(1000, 50) },
      { name: "b", counters: counters(1000, 60) },
    ]);
    expect(close.kind).toBe("no-difference");
    expect(close.words).toBe("no difference");
  });

  test("three arms: the best must beat each other one at 0.05 / 2", () => {
    const v = decideVerdict("reply_rate", 1000, [
      { name: "a", counters: counters(1000, 40) },
      { name: "b", counters: counters(1000, 80) },
      { name: "c", counters: counters(1000, 70) },
    ]);
    expect(v.words).toBe("no difference");
  });
});

/** The phones of an arm's messages, the same in every arm and seed: the i-th message's is entry i. */
const PHONES = Array.from({ length: 3100 }, (_, i) => `+1555${String(i).padStart(7, "0")}`);

/**
 * One arm's running counts, as the sandbox draws its messages (`n` messages of project `projectId`
 * to distinct phones): entry i is the deliveries and replies among the first i + 1 messages.
 */
function runningCounts(seed: number, projectId: string, replyRate: number, n: number): Count[] {
  if (n > PHONES.length) throw new Error(`at most ${PHONES.length} messages an arm`);
  const settings = { ...DEFAULT_SETTINGS, reply_rate: replyRate, failure_rate: 0.02 };
  let delivered = 0;
  let replies = 0;
  const running: Count[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const d = drawOutcome(seed, projectId, PHONES[i] as string, false, settings);
    if (d.error_code === null) delivered++;
    if (d.reply !== null) replies++;
    running[i] = { successes: replies, trials: delivered };
  }
  return running;
}

/** Two arms' running counts for `seed`, drawn once per rates and length (two tests read the A/A draws). */
const drawn = new Map<string, [Count[], Count[]]>();
afterAll(() => drawn.clear());
function runningArms(seed: number, rates: readonly [number, number], n: number): [Count[], Count[]] {
  const key = `${seed}|${rates.join("|")}|${n}`;
  let arms = drawn.get(key);
  if (arms === undefined) {
    arms = [runningCounts(seed, "arm-a", rates[0], n), runningCounts(seed, "arm-b", rates[1], n)];
    drawn.set(key, arms);
  }
  return arms;
}

/** The verdicts read at every `step` messages per arm, from `step` up to `n` messages each. */
function verdictsAlong(
  seed: number,
  rates: readonly [number, number],
  minSample: number,
  n: number,
  step: number,
) {
  const running = runningArms(seed, rates, n);
  const out: ReturnType<typeof decideVerdict>[] = [];
  for (let sent = step; sent <= n; sent += step)
    out.push(
      decideVerdict(
        "reply_rate",
        minSample,
        running.map((r, i) => {
          const count = r[sent - 1] ?? { successes: 0, trials: 0 };
          return { name: i === 0 ? "a" : "b", counters: counters(count.trials, count.successes) };
        }),
      ),
    );
  return out;
}

describe("the rule's error rates on the sandbox's draws", () => {
  const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

  test("A/A at 6 %: read every 100 sends up to three times the minimum sample, no winner in at least 95 of 100 seeds", () => {
    let noDifference = 0;
    for (const seed of SEEDS) {
      const seen = verdictsAlong(seed, [0.06, 0.06], 1000, 3100, 100);
      if (seen.every((v) => v.kind !== "wins") && seen.at(-1)?.kind === "no-difference") noDifference++;
    }
    expect(noDifference).toBeGreaterThanOrEqual(95);
  });

  test("why sequential: the same A/A read with a fixed-horizon z-test at each look names a false winner in more than 5 of 100 seeds", () => {
    let falseWinners = 0;
    for (const seed of SEEDS) {
      // The same draws as the A/A test above, its counts after the first n messages of each arm.
      const arms = runningArms(seed, [0.06, 0.06], 3100);
      let named = false;
      for (let n = 1000; n <= 3100 && !named; n += 100) {
        const [a, b] = arms.map((running) => running[n - 1]) as [Count, Count];
        named = Math.abs(twoProportionZ(a, b) ?? 0) > Z_95;
      }
      if (named) falseWinners++;
    }
    expect(falseWinners).toBeGreaterThan(5);
  });

  test("4 % against 8 %: never decided before the minimum sample; the 8 % arm wins, and no seed names the 4 % arm", () => {
    let wins = 0;
    for (const seed of SEEDS) {
      const seen = verdictsAlong(seed, [0.04, 0.08], 1500, 2000, 100);
      const before = seen.filter((v) => Math.min(...v.arms.map((a) => a.count.trials)) < 1500);
      expect(before.every((v) => v.kind === "undecided")).toBe(true);
      expect(seen.some((v) => v.kind === "wins" && v.leader === "a")).toBe(false);
      if (seen.at(-1)?.kind === "wins" && seen.at(-1)?.leader === "b") wins++;
    }
    expect(wins).toBeGreaterThanOrEqual(95);
  });
});
