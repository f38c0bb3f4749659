/**
 * Declared capacity, combined across campaign files, with the documented defaults (docs/forecast.md
 * "Defaults"). Pure.
 *
 * Defaults, from public carrier figures as of the maintainers' knowledge (2024; check your provider):
 * - daily cap 2,000 messages per Pacific day: T-Mobile's daily cap for a 10DLC brand of the lowest
 *   vetting tier (trust score 1-24, or unvetted), reset at midnight Pacific;
 * - 10dlc 75 segments a minute: AT&T's throughput for a 10DLC campaign of that tier;
 * - toll-free 180 segments a minute: 3 a second, the usual default of a verified toll-free number.
 */
import type { CapacitySpec, ChannelSpec } from "../campaign/model.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Capacity } from "./types.js";

export const DEFAULT_DAILY_CAP = 2000;
export const DEFAULT_THROUGHPUT: Readonly<Record<ChannelSpec, number>> = { "10dlc": 75, "toll-free": 180 };

export const DEFAULT_CAPACITY: Capacity = {
  brands: {},
  defaultDailyCap: DEFAULT_DAILY_CAP,
  throughput: DEFAULT_THROUGHPUT,
};

const CHANNELS: readonly ChannelSpec[] = ["10dlc", "toll-free"];

const smaller = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b);

/**
 * The capacity the files declare (each distinct `capacity:` once), defaults filled in. Where two
 * files differ on a brand or a channel, the smaller value wins (a cap is a floor to plan for) and a
 * `forecast.capacity-conflict` warning points at the later declaration.
 */
export function combineCapacity(specs: readonly (CapacitySpec | undefined)[]): {
  readonly capacity: Capacity;
  readonly diagnostics: readonly Diagnostic[];
} {
  const brands: Record<string, number | null> = {};
  const throughput: Partial<Record<ChannelSpec, number>> = {};
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<CapacitySpec>();
  for (const spec of specs) {
    if (spec === undefined || seen.has(spec)) continue;
    seen.add(spec);
    for (const [brand, { dailyCap }] of Object.entries(spec.brands)) {
      if (Object.hasOwn(brands, brand) && brands[brand] !== dailyCap) {
        const use = smaller(brands[brand] ?? null, dailyCap);
        diagnostics.push(
          conflict(
            spec,
            ["brands", brand, "daily_cap"],
            `brand \`${brand}\``,
            brands[brand] ?? null,
            dailyCap,
            use,
          ),
        );
        brands[brand] = use;
      } else brands[brand] = dailyCap;
    }
    for (const channel of CHANNELS) {
      const value = spec.throughput[channel];
      if (value === undefined) continue;
      const before = throughput[channel];
      if (before !== undefined && before !== value) {
        const use = Math.min(before, value);
        diagnostics.push(
          conflict(spec, ["throughput", channel], `channel \`${channel}\``, before, value, use),
        );
        throughput[channel] = use;
      } else throughput[channel] = value;
    }
  }
  return {
    capacity: {
      brands,
      defaultDailyCap: DEFAULT_DAILY_CAP,
      throughput: { ...DEFAULT_THROUGHPUT, ...throughput },
    },
    diagnostics,
  };
}

function conflict(
  spec: CapacitySpec,
  path: readonly string[],
  what: string,
  before: number | null,
  now: number | null,
  use: number | null,
): Diagnostic {
  const show = (v: number | null) => (v === null ? "none" : String(v));
  return {
    severity: "warning",
    code: "forecast.capacity-conflict",
    message: `capacity for ${what} is declared as ${show(before)} in one file and ${show(now)} here; the forecast uses ${show(use)}`,
    range: spec.locate(path),
    hint: "declare each brand's cap and each channel's throughput once, or the same in every file",
  };
}

/** The daily cap of a brand known by `names` (the first listed name wins); null: no cap. */
export function dailyCapOf(capacity: Capacity, names: readonly string[]): number | null {
  for (const name of names) if (Object.hasOwn(capacity.brands, name)) return capacity.brands[name] ?? null;
  return capacity.defaultDailyCap;
}
