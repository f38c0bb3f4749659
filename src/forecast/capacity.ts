/**
 * Declared capacity, the policy's tightened by the campaign files' (src/policy/capacity.ts), with the
 * documented defaults (docs/forecast.md "Defaults"). Pure.
 *
 * Defaults, from public carrier figures as of the maintainers' knowledge (2024; check your provider):
 * - daily cap 2,000 messages per Pacific day: T-Mobile's daily cap for a 10DLC brand of the lowest
 *   vetting tier (trust score 1-24, or unvetted), reset at midnight Pacific;
 * - 10dlc 75 segments a minute: AT&T's throughput for a 10DLC campaign of that tier;
 * - toll-free 180 segments a minute: 3 a second, the usual default of a verified toll-free number.
 */
import type { CapacitySpec, ChannelSpec } from "../campaign/model.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { capacityInForce } from "../policy/capacity.js";
import type { PolicyCapacity } from "../policy/model.js";
import type { Capacity } from "./types.js";

export const DEFAULT_DAILY_CAP = 2000;
export const DEFAULT_THROUGHPUT: Readonly<Record<ChannelSpec, number>> = { "10dlc": 75, "toll-free": 180 };

export const DEFAULT_CAPACITY: Capacity = {
  brands: {},
  defaultDailyCap: DEFAULT_DAILY_CAP,
  throughput: DEFAULT_THROUGHPUT,
};

/**
 * The capacity in force (src/policy/capacity.ts: the policy's, which the files' `capacity:` may only
 * tighten), defaults filled in; and the throughput the cap is judged at, the fastest a send may go:
 * the policy's, else the larger of the default and what the files declare; and the brands the
 * policy itself declares a daily cap for (by name or id): under `forecast_errors` only those count
 * as known, since a cap the file under judgement declares is the file judging itself.
 */
export function combineCapacity(
  specs: readonly (CapacitySpec | undefined)[],
  policy?: PolicyCapacity,
): {
  readonly capacity: Capacity;
  readonly fastest: Capacity["throughput"];
  readonly policyBrands: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
} {
  const inForce = capacityInForce(policy, specs);
  const throughput = { ...DEFAULT_THROUGHPUT, ...inForce.capacity.throughput };
  const fastest = {
    "10dlc":
      inForce.capacity.policyThroughput["10dlc"] ??
      Math.max(DEFAULT_THROUGHPUT["10dlc"], throughput["10dlc"]),
    "toll-free":
      inForce.capacity.policyThroughput["toll-free"] ??
      Math.max(DEFAULT_THROUGHPUT["toll-free"], throughput["toll-free"]),
  };
  return {
    capacity: { brands: inForce.capacity.brands, defaultDailyCap: DEFAULT_DAILY_CAP, throughput },
    fastest,
    policyBrands: Object.keys(policy?.brands ?? {}),
    diagnostics: inForce.diagnostics,
  };
}

/** Is a daily cap declared in `declared` (brand names and ids) for the brand known by `names`? */
export function capDeclared(declared: readonly string[], names: readonly string[]): boolean {
  return names.some((name) => declared.includes(name));
}

/**
 * The daily cap of a brand known by `names` (its id, its name, as written): the strictest declared
 * under any of them, so a cap declared under the id cannot loosen one declared under the name;
 * the default when none is declared; null: no cap.
 */
export function dailyCapOf(capacity: Capacity, names: readonly string[]): number | null {
  let cap: number | null | undefined;
  for (const name of names) {
    if (!Object.hasOwn(capacity.brands, name)) continue;
    const declared = capacity.brands[name] ?? null;
    cap = cap === undefined || cap === null ? declared : declared === null ? cap : Math.min(cap, declared);
  }
  return cap === undefined ? capacity.defaultDailyCap : cap;
}
