/**
 * Guards judged on a project's live figures (`campaignctl watch`). Pure.
 *
 * A guard (`GuardSpec`, from a project's or the defaults' `guard:` key) holds thresholds on the
 * rates `status` shows, with the same definitions (`ratesOf` in `figures.ts`):
 * - failure rate = failed / sent (`max_failure_rate`);
 * - opt-out rate = opted out / delivered (`max_opt_out_rate`).
 *
 * Rules, in order:
 * 1. A counter that is unknown (a project no statistics row lists): nothing is judged (`unknown`).
 * 2. Fewer messages sent than `minSample`: nothing is judged yet (`below-sample`), so the first few
 *    failures of a send cannot pause it.
 * 3. A rate trips its guard when it is **strictly greater** than the threshold, compared exactly
 *    (integers, the threshold read as the decimal the file wrote: 0.05 is 5/100, never a float
 *    product). A rate equal to its threshold does not trip. A rate without denominator (nothing
 *    delivered yet) is no rate and trips nothing.
 * 4. Trips are listed failure rate first, then opt-out rate; the first one names the pause.
 */
import type { GuardSpec } from "../campaign/model.js";
import { type Counters, ratesOf } from "../status/figures.js";
import type { Fraction } from "../text/fraction.js";

/** Which guard: `max_failure_rate` or `max_opt_out_rate`. */
export type GuardName = "failure-rate" | "opt-out-rate";

/** The counts a guard reads (a project's statistics row). */
export type GuardFigures = Pick<Counters, "sent" | "delivered" | "failed" | "optedOut">;

/**
 * One guard crossed. Invariants: `rate` is failed/sent (`failure-rate`) or opted-out/delivered
 * (`opt-out-rate`), strictly greater than `limit`; `limit` is the file's threshold in [0, 1].
 */
export interface GuardTrip {
  readonly guard: GuardName;
  readonly rate: Fraction;
  readonly limit: number;
}

/**
 * What a guard says about a project's figures. `tripped` holds at least one trip, in the order of
 * rule 4; `below-sample` gives the messages sent so far and the sample still needed.
 */
export type GuardVerdict =
  | { readonly kind: "unknown" }
  | { readonly kind: "below-sample"; readonly sent: number; readonly minSample: number }
  | { readonly kind: "within" }
  | { readonly kind: "tripped"; readonly trips: readonly [GuardTrip, ...GuardTrip[]] };

/** Judges `figures` against `guard` (see the module comment). */
export function judgeGuard(figures: GuardFigures, guard: GuardSpec): GuardVerdict {
  const { sent, delivered, failed, optedOut } = figures;
  if (sent === null || delivered === null || failed === null || optedOut === null) return { kind: "unknown" };
  if (sent < guard.minSample) return { kind: "below-sample", sent, minSample: guard.minSample };
  const rates = ratesOf({ ...UNUSED, sent, delivered, failed, optedOut });
  const trips: GuardTrip[] = [];
  const check = (name: GuardName, rate: Fraction | null, limit: number | undefined): void => {
    if (rate !== null && limit !== undefined && exceeds(rate, limit))
      trips.push({ guard: name, rate, limit });
  };
  check("failure-rate", rates.failure, guard.maxFailureRate);
  check("opt-out-rate", rates.optOut, guard.maxOptOutRate);
  const [first, ...rest] = trips;
  return first === undefined ? { kind: "within" } : { kind: "tripped", trips: [first, ...rest] };
}

/** The counters a guard does not read. */
const UNUSED = { replies: null, clicks: null, uniqueClicks: null, actualCostE4: null } as const;

/**
 * Whether `rate` is strictly greater than `limit`, exactly: `limit` is read as the shortest decimal
 * that JavaScript prints for it (what the file wrote: `0.05`, `1e-7`), so `25/500 > 0.05` is false.
 */
export function exceeds(rate: Fraction, limit: number): boolean {
  const { numerator, denominator } = decimalOf(limit);
  return BigInt(rate.numerator) * denominator > numerator * BigInt(rate.denominator);
}

/** A finite, non-negative number as the exact fraction of its shortest decimal form. */
export function decimalOf(value: number): { readonly numerator: bigint; readonly denominator: bigint } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(value));
  if (match === null) throw new RangeError(`not a finite non-negative number: ${value}`);
  const digits = `${match[1]}${match[2] ?? ""}`;
  const exponent = Number(match[3] ?? 0) - (match[2] ?? "").length;
  return exponent >= 0
    ? { numerator: BigInt(digits) * 10n ** BigInt(exponent), denominator: 1n }
    : { numerator: BigInt(digits), denominator: 10n ** BigInt(-exponent) };
}

/**
 * How a project's guard judges its figures now: `no-guard` (it has none), `unknown`, `below-sample`,
 * `within`; `tripped`: it tripped in this run (and is judged no more); `above`: its figures are above
 * a threshold, but it was not sending, so nothing was done (a project paused before the run).
 */
export type Judged = "no-guard" | Exclude<GuardVerdict["kind"], "tripped"> | "tripped" | "above";
