/**
 * Replay protection by time: the contract asks receivers to reject a delivery whose `X-Timestamp`
 * (Unix seconds) is more than about 5 minutes from now. Judged against an injected clock, never the
 * wall clock directly. X-Timestamp is not signed, so this stops only a late replay of a captured
 * delivery as it was; a replay with a fresh timestamp is caught by the dedupe record (dedupe.ts).
 */

/** How far X-Timestamp may be from the listener's clock, either way: 5 minutes. */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60_000;

/** Whole seconds, as the contract sends them (at most 12 digits: no overflow, no exponent). */
const UNIX_SECONDS = /^\d{1,12}$/;

export type TimestampCheck =
  | { readonly ok: true; readonly timestampMs: number }
  | { readonly ok: false; readonly reason: "missing-timestamp" | "malformed-timestamp" }
  | { readonly ok: false; readonly reason: "stale-timestamp"; readonly timestampMs: number };

/**
 * Checks `header` against `nowMs`. Invariant: ok exactly when it is whole Unix seconds at most
 * `toleranceMs` before or after `nowMs` (the bound itself is accepted).
 */
export function checkTimestamp(
  header: string | undefined,
  nowMs: number,
  toleranceMs: number = TIMESTAMP_TOLERANCE_MS,
): TimestampCheck {
  if (header === undefined || header.trim() === "") return { ok: false, reason: "missing-timestamp" };
  if (!UNIX_SECONDS.test(header.trim())) return { ok: false, reason: "malformed-timestamp" };
  const timestampMs = Number(header.trim()) * 1000;
  if (Math.abs(nowMs - timestampMs) > toleranceMs)
    return { ok: false, reason: "stale-timestamp", timestampMs };
  return { ok: true, timestampMs };
}
