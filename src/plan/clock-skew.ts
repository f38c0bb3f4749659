/**
 * The plan's clock is the API's (its `Date` header); this machine's clock only stands in before the
 * first response. When the two differ by more than `CLOCK_SKEW_TOLERANCE_MS` the plan says so: a
 * schedule judged "in the future" by a runner whose clock is behind may already be past for the API,
 * which would send at once. Pure: both readings are passed in.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatDuration } from "../text/duration.js";

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
    message: `the API's clock (${iso(api)}) is ${formatDuration(Math.abs(skewMs))} ${direction} this machine's (${iso(local)}); the plan judges schedules by the API's clock`,
    hint: "fix this machine's clock (NTP), or check that the base URL is the API you mean",
  };
}

function iso(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
