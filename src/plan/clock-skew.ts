/**
 * The plan's clock is the API's (its `Date` header); this machine's clock only stands in before the
 * first response. When the two differ by more than `CLOCK_SKEW_TOLERANCE_MS` the plan says so: a
 * schedule judged "in the future" by a runner whose clock is behind may already be past for the API,
 * which would send at once. Pure: both readings are passed in.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/** Tolerated difference between the API's clock and this machine's (the `Date` header has 1 s resolution). */
export const CLOCK_SKEW_TOLERANCE_MS = 60_000;

/** A warning naming both clocks when they differ by more than the tolerance, else undefined. */
export function clockSkewDiagnostic(api: Date, local: Date): Diagnostic | undefined {
  const skewMs = api.getTime() - local.getTime();
  if (Math.abs(skewMs) <= CLOCK_SKEW_TOLERANCE_MS) return undefined;
  const direction = skewMs > 0 ? "ahead of" : "behind";
  return {
    severity: "warning",
    code: "plan.clock-skew",
    message: `the API's clock (${iso(api)}) is ${duration(Math.abs(skewMs))} ${direction} this machine's (${iso(local)}); the plan judges schedules by the API's clock`,
    hint: "fix this machine's clock (NTP), or check that the base URL is the API you mean",
  };
}

function iso(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * `2h 5m`, `3m 12s`, `1d 4h`: the two largest units, rounded to the smaller one (the `Date` header
 * has 1-second resolution, so 1h 59m 59.6s reads as `2h`, not `1h 59m`).
 */
function duration(ms: number): string {
  const units: readonly [string, number][] = [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ];
  const largest = units.findIndex(([, size]) => ms >= size);
  const precision = units[Math.min(units.length - 1, Math.max(0, largest) + 1)]?.[1] ?? 1000;
  const parts: string[] = [];
  let rest = Math.round(ms / precision) * precision;
  for (const [name, size] of units) {
    if (parts.length === 2) break;
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || parts.length > 0) parts.push(`${n}${name}`);
  }
  return parts.filter((p) => !p.startsWith("0")).join(" ");
}
