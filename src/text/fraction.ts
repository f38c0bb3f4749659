/**
 * A rate as the counts it comes from: numerator over a positive denominator. Rates are kept as
 * fractions and rounded only when shown, so a total's rate is recomputed from the summed counts
 * (never an average of rates) and every view rounds the same exact value. A leaf: status, watch,
 * results and email figures all round through it. Pure.
 */
/** `numerator / denominator`. Invariants: both are integers, `denominator > 0`, `numerator >= 0`. */
export interface Fraction {
  readonly numerator: number;
  readonly denominator: number;
}

/**
 * The fraction `numerator / denominator`, or null when either is unknown or the denominator is 0
 * (a rate of nothing sent is no rate at all, not 0 %).
 */
export function fraction(numerator: number | null, denominator: number | null): Fraction | null {
  if (numerator === null || denominator === null || denominator <= 0) return null;
  return { numerator, denominator };
}

/**
 * The fraction scaled by `10^places` and rounded half up, as an integer: `scaled({1, 3}, 4)` is
 * 3333 (0.3333), `scaled({2, 3}, 3)` is 667 (66.7 % shown with one decimal).
 */
export function scaled(f: Fraction, places: number): number {
  return roundedQuotient(f.numerator * 10 ** places, f.denominator);
}

/** The fraction as a number rounded half up to `places` decimals (0.9737 for 37/38 at 4). */
export function rounded(f: Fraction, places: number): number {
  return scaled(f, places) / 10 ** places;
}

/**
 * `numerator / denominator` rounded to the nearest integer, halves away from zero (so 0.5 cent is a
 * whole cent, as a reviewer expects). Both are integers; `denominator` is positive.
 */
export function roundedQuotient(numerator: number, denominator: number): number {
  const sign = numerator < 0 ? -1 : 1;
  const abs = Math.abs(numerator);
  const q = Math.floor(abs / denominator);
  const r = abs - q * denominator;
  return sign * (2 * r >= denominator ? q + 1 : q);
}
