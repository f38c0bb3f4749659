/**
 * Capacity belongs to the policy (design.md principle 10): the brands' daily caps and the channels'
 * throughput that the forecast judges a send by are the organization's truth, declared in the policy
 * file; the file under judgement may only tighten them (a lower daily cap, a slower throughput). A
 * looser value, in a campaign file or in a nearer policy file, is an error
 * (`policy.capacity-loosened`) and the stricter value holds. Pure.
 */
import type { CapacitySpec, ChannelSpec } from "../campaign/model.js";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { nameMap, own } from "../text/names.js";
import { type CapacityEntry, NO_POLICY_CAPACITY, type PolicyCapacity } from "./model.js";

const CHANNELS: readonly ChannelSpec[] = ["10dlc", "toll-free"];

/**
 * The capacity in force for a run, before the forecast fills in its defaults. Invariants: a cap or a
 * throughput here is never looser than the policy's; a brand or channel absent was declared nowhere.
 */
export interface CapacityInForce {
  /** Daily cap by brand name or id (null: no carrier cap), the strictest declared anywhere. */
  readonly brands: Readonly<Record<string, number | null>>;
  /** Throughput by channel, the slowest declared anywhere. */
  readonly throughput: Readonly<Partial<Record<ChannelSpec, number>>>;
  /**
   * The policy's own throughput by channel: the fastest a send may go. A file's slower throughput
   * may push a finish past its deadline, but it cannot make a send slow enough to miss its cap:
   * the forecast judges the cap at this rate too (src/plan/forecast-of-plan.ts).
   */
  readonly policyThroughput: Readonly<Partial<Record<ChannelSpec, number>>>;
}

/** `null` (no cap) is the loosest cap. */
const capAtMost = (a: number | null, b: number | null): boolean => b === null || (a !== null && a <= b);

const showCap = (v: number | null): string => (v === null ? "none" : String(v));

/**
 * The policies' capacity combined, farthest first: a nearer layer may add a brand or a channel, or
 * tighten one; a looser value is refused (`policy.capacity-loosened`, at the nearer value, the
 * farther in `related`) and the farther value holds.
 */
export function combinePolicyCapacity(layers: readonly PolicyCapacity[]): {
  readonly capacity: PolicyCapacity;
  readonly diagnostics: readonly Diagnostic[];
} {
  const brands = nameMap<CapacityEntry<number | null>>();
  const throughput: Partial<Record<ChannelSpec, CapacityEntry<number>>> = {};
  const diagnostics: Diagnostic[] = [];
  for (const layer of layers) {
    for (const [brand, entry] of Object.entries(layer.brands)) {
      const before = own(brands, brand);
      if (before === undefined || capAtMost(entry.value, before.value)) brands[brand] = entry;
      else
        diagnostics.push(
          loosened(
            `${entry.file} declares daily_cap ${showCap(entry.value)} for brand \`${brand}\``,
            entry.range,
            `${before.file}'s ${showCap(before.value)}`,
            before,
          ),
        );
    }
    for (const channel of CHANNELS) {
      const entry = layer.throughput[channel];
      if (entry === undefined) continue;
      const before = throughput[channel];
      if (before === undefined || entry.value <= before.value) throughput[channel] = entry;
      else
        diagnostics.push(
          loosened(
            `${entry.file} declares a ${channel} throughput of ${entry.value} segments a minute`,
            entry.range,
            `${before.file}'s ${before.value}`,
            before,
          ),
        );
    }
  }
  return { capacity: { brands, throughput }, diagnostics };
}

/**
 * The capacity in force: the policy's, tightened by the campaign files' `capacity:` (each distinct
 * declaration once). A file's value looser than the policy's is an error (`policy.capacity-loosened`
 * at the file's value, the policy's in `related`) and the policy's holds; where two files differ the
 * smaller wins, with a `forecast.capacity-conflict` warning at the later declaration.
 */
export function capacityInForce(
  policy: PolicyCapacity | undefined,
  files: readonly (CapacitySpec | undefined)[],
): { readonly capacity: CapacityInForce; readonly diagnostics: readonly Diagnostic[] } {
  const policyCapacity = policy ?? NO_POLICY_CAPACITY;
  const brands = nameMap<number | null>();
  const throughput: Partial<Record<ChannelSpec, number>> = {};
  const policyThroughput: Partial<Record<ChannelSpec, number>> = {};
  for (const [brand, entry] of Object.entries(policyCapacity.brands)) brands[brand] = entry.value;
  for (const channel of CHANNELS) {
    const entry = policyCapacity.throughput[channel];
    if (entry === undefined) continue;
    throughput[channel] = entry.value;
    policyThroughput[channel] = entry.value;
  }
  const diagnostics: Diagnostic[] = [];
  const fromFiles = new Set<string>();
  const seen = new Set<CapacitySpec>();
  for (const spec of files) {
    if (spec === undefined || seen.has(spec)) continue;
    seen.add(spec);
    for (const [brand, { dailyCap }] of Object.entries(spec.brands)) {
      const range = spec.locate(["brands", brand, "daily_cap"]);
      const ruled = own(policyCapacity.brands, brand);
      if (ruled !== undefined && !capAtMost(dailyCap, ruled.value)) {
        diagnostics.push(
          loosened(
            `${range.file} declares daily_cap ${showCap(dailyCap)} for brand \`${brand}\``,
            range,
            `the policy's ${showCap(ruled.value)}`,
            ruled,
          ),
        );
        continue;
      }
      const before = own(brands, brand);
      if (before !== undefined && fromFiles.has(brand) && before !== dailyCap)
        diagnostics.push(conflict(range, `brand \`${brand}\``, before, dailyCap));
      brands[brand] = before === undefined || capAtMost(dailyCap, before) ? dailyCap : before;
      fromFiles.add(brand);
    }
    for (const channel of CHANNELS) {
      const value = spec.throughput[channel];
      if (value === undefined) continue;
      const range = spec.locate(["throughput", channel]);
      const ruled = policyCapacity.throughput[channel];
      if (ruled !== undefined && value > ruled.value) {
        diagnostics.push(
          loosened(
            `${range.file} declares a ${channel} throughput of ${value} segments a minute`,
            range,
            `the policy's ${ruled.value}`,
            ruled,
          ),
        );
        continue;
      }
      const before = throughput[channel];
      const key = `\u0000${channel}`;
      if (before !== undefined && fromFiles.has(key) && before !== value)
        diagnostics.push(conflict(range, `channel \`${channel}\``, before, value));
      throughput[channel] = before === undefined ? value : Math.min(before, value);
      fromFiles.add(key);
    }
  }
  return { capacity: { brands, throughput, policyThroughput }, diagnostics };
}

/**
 * The errors of `files`' capacity against `policy`'s: each value looser than the policy's
 * (`policy.capacity-loosened`). What validate and plan stop on before any request.
 */
export function capacityLoosened(
  policy: { readonly capacity: PolicyCapacity } | null | undefined,
  files: readonly (CapacitySpec | undefined)[],
): Diagnostic[] {
  return capacityInForce(policy?.capacity, files).diagnostics.filter((d) => d.severity === "error");
}

function loosened(what: string, range: SourceRange, than: string, ruled: CapacityEntry<unknown>): Diagnostic {
  return {
    severity: "error",
    code: "policy.capacity-loosened",
    message: `${what}, looser than ${than}: capacity belongs to the policy, and a file may only tighten it (a lower daily_cap, a slower throughput)`,
    range,
    related: [{ message: `${ruled.file} declares it here`, range: ruled.range }],
    hint: "declare at most the policy's value, or leave it out (the policy's applies); if the carrier really allows more, change it in the policy file (see docs/policy.md#capacity)",
  };
}

function conflict(range: SourceRange, what: string, before: number | null, now: number | null): Diagnostic {
  const use = capAtMost(before, now) ? before : now;
  return {
    severity: "warning",
    code: "forecast.capacity-conflict",
    message: `capacity for ${what} is declared as ${showCap(before)} in one file and ${showCap(now)} here; the forecast uses ${showCap(use)}`,
    range,
    hint: "declare each brand's cap and each channel's throughput once, or the same in every file",
  };
}
