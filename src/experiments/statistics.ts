/**
 * The statistics of an experiment between arms (docs/experiments.md): counts in, intervals, tests
 * and sample sizes out. Pure, exact for the same inputs on every machine (no random draws).
 *
 * - {@link wilson}: the 95 % Wilson score interval of one arm's rate (good near 0 % and with few
 *   trials, where the textbook interval is not).
 * - {@link twoProportionZ}: the pooled two-proportion z statistic.
 * - {@link sequentialTest}: the always-valid test (a mixture sequential probability ratio test,
 *   normal approximation): its p-value stays valid however often it is read, so `status` and
 *   `watch` may look at every poll without inflating false winners (docs/experiments.md "Why a
 *   sequential test").
 * - {@link requiredPerArm}: the deliveries per arm at which a difference of the observed size would
 *   be decided by that test.
 */

/** A count of successes out of trials. Invariants: integers, `0 <= successes <= trials`. */
export interface Count {
  readonly successes: number;
  readonly trials: number;
}

/** An interval of rates, both ends in [0, 1]. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** The two-sided 97.5 % quantile of the standard normal distribution (95 % intervals). */
export const Z_95 = 1.959963984540054;

/** The significance level of every verdict: a false winner at most this often. */
export const ALPHA = 0.05;

/**
 * The mixture's width, in units of the variance of the difference at the minimum sample: 10 makes
 * the test decide soonest around the minimum sample (its boundary there is z = 3.04).
 */
export const MIXTURE_SCALE = 10;

/** The 95 % Wilson score interval of `count`'s rate; null without trials. */
export function wilson(count: Count): Interval | null {
  const { successes: x, trials: n } = count;
  if (n <= 0) return null;
  const z2 = Z_95 * Z_95;
  const p = x / n;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z_95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The pooled two-proportion z statistic of `b` against `a` (positive: b's rate is higher); null when undefined. */
export function twoProportionZ(a: Count, b: Count): number | null {
  const v = pooledVariance(a, b);
  if (v === null || v === 0) return null;
  return (b.successes / b.trials - a.successes / a.trials) / Math.sqrt(v);
}

/** The pooled estimate of the variance of the difference of rates, p(1-p)(1/nA + 1/nB); null without trials. */
function pooledVariance(a: Count, b: Count): number | null {
  if (a.trials <= 0 || b.trials <= 0) return null;
  const p = (a.successes + b.successes) / (a.trials + b.trials);
  return p * (1 - p) * (1 / a.trials + 1 / b.trials);
}

/** The outcome of the sequential test at the counts given. */
export interface SequentialResult {
  /** The always-valid p-value, min(1, 1 / likelihood ratio). */
  readonly p: number;
  /** p < {@link ALPHA}. */
  readonly significant: boolean;
}

/**
 * The mixture sequential probability ratio test of equal rates (Johari et al., "Always valid
 * inference", 2017; normal approximation): with θ the difference of rates, V its pooled variance
 * now and τ² = {@link MIXTURE_SCALE} × the variance it would have with `minSample` trials per arm,
 * the likelihood ratio is sqrt(V / (V + τ²)) · exp(θ² τ² / (2 V (V + τ²))). Under equal rates it
 * exceeds 1/α with probability at most α over every look, however many. Null when undefined
 * (no trials, or every trial a success or none).
 */
export function sequentialTest(a: Count, b: Count, minSample: number): SequentialResult | null {
  const v = pooledVariance(a, b);
  if (v === null || v === 0 || minSample <= 0) return null;
  const p = (a.successes + b.successes) / (a.trials + b.trials);
  const tau2 = (MIXTURE_SCALE * 2 * p * (1 - p)) / minSample;
  const theta = b.successes / b.trials - a.successes / a.trials;
  const logRatio = 0.5 * Math.log(v / (v + tau2)) + (theta * theta * tau2) / (2 * v * (v + tau2));
  const pValue = Math.min(1, Math.exp(-logRatio));
  return { p: pValue, significant: pValue < ALPHA };
}

/** Beyond this many deliveries per arm an estimate is "more than" it (a difference too small to chase). */
export const REQUIRED_CAP = 10_000_000;

/**
 * The deliveries per arm (the same in both) at which {@link sequentialTest} would call rates `pa`
 * and `pb` different, the observed difference staying what it is: the smallest such n, found by
 * doubling then halving. Null when the rates are equal or either is 0 or 1 at both (no difference
 * to decide), or past {@link REQUIRED_CAP}.
 */
export function requiredPerArm(pa: number, pb: number, minSample: number): number | null {
  if (pa === pb || minSample <= 0) return null;
  const decides = (n: number): boolean => {
    const a = { successes: pa * n, trials: n };
    const b = { successes: pb * n, trials: n };
    return sequentialTest(a, b, minSample)?.significant === true;
  };
  let high = 1;
  while (!decides(high)) {
    high *= 2;
    if (high > REQUIRED_CAP) return null;
  }
  let low = Math.floor(high / 2);
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (decides(mid)) high = mid;
    else low = mid;
  }
  return high;
}
