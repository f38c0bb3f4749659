/**
 * An experiment's verdict from its arms' counts (docs/experiments.md "The verdict"): each arm's
 * rate with its 95 % interval, and one of four outcomes in words. Pure; the one rule `status`,
 * `results`, `watch` and `plan` (the holdout) all read.
 *
 * The rule. No outcome before every arm has `minSample` trials (deliveries; sends for the delivery
 * rate): "B leads, not yet decided: about N more deliveries per arm". Then the best arm is tested
 * against each other arm with the sequential test (statistics.ts) at α / (arms − 1) each
 * (Bonferroni): when it beats every one, "B wins (p < 0.05)"; else "no difference". The sequential
 * test keeps a false winner under 5 % however often the verdict is read.
 */
import type { ExperimentMetric } from "../campaign/model.js";
import { ALPHA, type Count, type Interval, requiredPerArm, sequentialTest, wilson } from "./statistics.js";

/** The counters of one arm (summed over its projects) the metrics are computed from. */
export interface ArmCounters {
  readonly sent: number;
  readonly delivered: number;
  readonly replies: number;
  readonly optedOut: number;
  readonly uniqueClicks: number;
}

/** The metric's count of an arm: successes out of trials. */
export function metricCount(metric: ExperimentMetric, c: ArmCounters): Count {
  switch (metric) {
    case "reply_rate":
      return { successes: c.replies, trials: c.delivered };
    case "click_rate":
      return { successes: c.uniqueClicks, trials: c.delivered };
    case "opt_out_rate":
      return { successes: c.optedOut, trials: c.delivered };
    case "delivery_rate":
      return { successes: c.delivered, trials: c.sent };
  }
}

/** Whether a higher rate is the better one (an opt-out rate is better low). */
export function higherIsBetter(metric: ExperimentMetric): boolean {
  switch (metric) {
    case "opt_out_rate":
      return false;
    case "reply_rate":
    case "click_rate":
    case "delivery_rate":
      return true;
  }
}

/** What the metric's trials are called in words ("deliveries", "sends"; one: "delivery", "send"). */
export function trialsNoun(metric: ExperimentMetric, count = 2): string {
  if (metric === "delivery_rate") return count === 1 ? "send" : "sends";
  return count === 1 ? "delivery" : "deliveries";
}

/** One arm as the verdict shows it. Invariant: `rate` and `interval` are null exactly when `count.trials` is 0. */
export interface ArmResult {
  readonly name: string;
  readonly count: Count;
  readonly rate: number | null;
  readonly interval: Interval | null;
}

export type VerdictKind = "undecided" | "wins" | "no-difference";

/**
 * The verdict. Invariants: `leader` is set with `wins` (the winner) and, while `undecided`, when
 * one arm's rate is strictly the best; `morePerArm` > 0 exactly when `undecided`; `p` is set with
 * `wins` and `no-difference` (the largest of the leader's p-values against the others).
 */
export interface Verdict {
  readonly kind: VerdictKind;
  readonly leader?: string;
  readonly morePerArm?: number;
  readonly p?: number;
  /** Trials per arm at which a difference of the observed size would be decided (null: none to decide). */
  readonly requiredPerArm: number | null;
  readonly arms: readonly ArmResult[];
  /** The verdict in words, as every view prints it. */
  readonly words: string;
}

/** The verdict of arms `named` (in the file's order, at least two) on `metric` with `minSample` per arm. */
export function decideVerdict(
  metric: ExperimentMetric,
  minSample: number,
  named: readonly { readonly name: string; readonly counters: ArmCounters }[],
): Verdict {
  const arms: ArmResult[] = named.map(({ name, counters }) => {
    const count = metricCount(metric, counters);
    return {
      name,
      count,
      rate: count.trials > 0 ? count.successes / count.trials : null,
      interval: wilson(count),
    };
  });
  const leader = bestArm(arms, higherIsBetter(metric));
  const fewest = Math.min(...arms.map((a) => a.count.trials));
  const best = leader ?? arms[0];
  const others = arms.filter((a) => a !== best);
  const runnerUp = bestArm(others, higherIsBetter(metric)) ?? others[0];
  const required =
    best?.rate != null && runnerUp?.rate != null ? requiredPerArm(runnerUp.rate, best.rate, minSample) : null;
  const noun = trialsNoun(metric, minSample - fewest);
  if (fewest < minSample || best === undefined) {
    const more = minSample - fewest;
    const lead = leader === undefined ? "not yet decided" : `${leader.name} leads, not yet decided`;
    return {
      kind: "undecided",
      ...(leader === undefined ? {} : { leader: leader.name }),
      morePerArm: more,
      requiredPerArm: required,
      arms,
      words: `${lead}: about ${about(more)} more ${noun} per arm`,
    };
  }
  const level = ALPHA / (arms.length - 1);
  const ps = others.map((o) => sequentialTest(o.count, best.count, minSample)?.p ?? 1);
  const p = Math.max(...ps);
  if (leader !== undefined && p < level)
    return {
      kind: "wins",
      leader: leader.name,
      p,
      requiredPerArm: required,
      arms,
      words: `${leader.name} wins (p < 0.05)`,
    };
  return { kind: "no-difference", p, requiredPerArm: required, arms, words: "no difference" };
}

/** The arm whose rate is strictly the best, or undefined (a tie for the best, or no rates). */
function bestArm(arms: readonly ArmResult[], higher: boolean): ArmResult | undefined {
  let best: ArmResult | undefined;
  let tied = false;
  for (const arm of arms) {
    if (arm.rate === null) continue;
    if (best === undefined || best.rate === null) {
      best = arm;
      continue;
    }
    const better = higher ? arm.rate > best.rate : arm.rate < best.rate;
    if (better) {
      best = arm;
      tied = false;
    } else if (arm.rate === best.rate) tied = true;
  }
  return tied ? undefined : best;
}

/** A count of trials in words: exact under 100, else rounded up to tens ("about 420"). */
export function about(n: number): string {
  const rounded = n < 100 ? n : Math.ceil(n / 10) * 10;
  return rounded.toLocaleString("en-US");
}
