/**
 * The words of a guard trip: the pause reason `watch` sends (`guard: failure rate 7.2% > 5% (36 of
 * 500 sent)`) and the percentages every view of a guard shows. Pure.
 *
 * Invariants of {@link guardPauseReason}: it starts with `GUARD_PAUSE_REASON_PREFIX` (`guard: `,
 * how `plan` recognises a guard's pause), names the guard and the figures, and is 1 to
 * `PAUSE_REASON_MAX` (100) characters, as the contract requires of a pause reason.
 */
import { GUARD_PAUSE_REASON_PREFIX } from "../contract/guard-reason.js";
import { PAUSE_REASON_MAX } from "../contract/limits.js";
import { type Fraction, scaled } from "../text/fraction.js";
import { decimalOf, type GuardName, type GuardTrip } from "./guard-judge.js";

/** How a guard is named in words. */
export const GUARD_LABEL: Readonly<Record<GuardName, string>> = {
  "failure-rate": "failure rate",
  "opt-out-rate": "opt-out rate",
};

/** What a guard's rate counts over: `36 of 500 sent`, `15 of 480 delivered`. */
const DENOMINATOR_WORD: Readonly<Record<GuardName, string>> = {
  "failure-rate": "sent",
  "opt-out-rate": "delivered",
};

/** The pause reason of a trip (see the module comment). */
export function guardPauseReason(trip: GuardTrip): string {
  const head = `${GUARD_PAUSE_REASON_PREFIX}${GUARD_LABEL[trip.guard]} ${tripRatePercent(trip)} > ${limitPercent(trip.limit)}`;
  const full = `${head} (${grouped(trip.rate.numerator)} of ${grouped(trip.rate.denominator)} ${DENOMINATOR_WORD[trip.guard]})`;
  if (full.length <= PAUSE_REASON_MAX) return full;
  return head.length <= PAUSE_REASON_MAX ? head : head.slice(0, PAUSE_REASON_MAX);
}

/**
 * The tripped rate as a percentage: one decimal (`7.2%`), or as many more (up to 4) as it takes to
 * show it above the threshold, so a trip never reads `5.0% > 5%`.
 */
export function tripRatePercent(trip: GuardTrip): string {
  const limit = decimalOf(trip.limit);
  for (let decimals = 1; decimals < 4; decimals++) {
    const shown = BigInt(scaled(trip.rate, decimals + 2));
    if (shown * limit.denominator > limit.numerator * 10n ** BigInt(decimals + 2))
      return ratePercent(trip.rate, decimals);
  }
  return ratePercent(trip.rate, 4);
}

/** A rate as a percentage with `decimals` decimals, rounded half up from the exact fraction. */
export function ratePercent(rate: Fraction, decimals: number): string {
  const units = scaled(rate, decimals + 2);
  const per = 10 ** decimals;
  const whole = Math.floor(units / per);
  return decimals === 0 ? `${whole}%` : `${whole}.${String(units % per).padStart(decimals, "0")}%`;
}

/** A threshold (a fraction in [0, 1], as the file wrote it) as an exact percentage: 0.05 -> `5%`, 0.025 -> `2.5%`. */
export function limitPercent(limit: number): string {
  const { numerator, denominator } = decimalOf(limit);
  const hundredths = numerator * 100n;
  const whole = hundredths / denominator;
  let rest = hundredths % denominator;
  let decimals = "";
  // The denominator is a power of ten, so the decimals end.
  while (rest > 0n) {
    rest *= 10n;
    decimals += String(rest / denominator);
    rest %= denominator;
  }
  return `${whole}${decimals === "" ? "" : `.${decimals}`}%`;
}

/** 1234567 -> "1,234,567". */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
