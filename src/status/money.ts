/**
 * Money as the statistics give it, in integers: an amount is a whole number of ten-thousandths of a
 * dollar ("e4"), the precision of `actual_cost` (a decimal string with 4 decimals). Sums and
 * quotients are computed on these integers, never on floats, so a total equals the sum of its rows to
 * the last digit. Pure.
 */

/** Ten-thousandths of a dollar in one cent (`estimated_cost_cents` -> e4). */
export const E4_PER_CENT = 100;

/**
 * `actual_cost` ("12.3400", also "12.34", "12" or "0.5") as e4; undefined when it is not a
 * non-negative decimal with at most 4 decimals, or too large to count exactly.
 */
export function parseCostE4(text: string): number | undefined {
  const match = /^(\d+)(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (match === null) return undefined;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? "").padEnd(4, "0"));
  const e4 = whole * 10_000 + fraction;
  return Number.isSafeInteger(e4) ? e4 : undefined;
}

/** e4 as a decimal string with exactly 4 decimals, the API's own notation ("12.3400"). */
export function e4ToDecimal(e4: number): string {
  const sign = e4 < 0 ? "-" : "";
  const abs = Math.abs(e4);
  return `${sign}${Math.floor(abs / 10_000)}.${String(abs % 10_000).padStart(4, "0")}`;
}
