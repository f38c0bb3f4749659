/**
 * Text shaped like an API key, which no file or output should hold. The contract says every key
 * begins with a fixed prefix ending in `live_`: a run of a prefix ending in `live_` (`pc_live_`)
 * and 8 or more key characters after it is key-shaped, whatever key it is (the run's own keys are
 * masked by the redactor, src/text/redact.ts; this finds one the run was not given). Pure.
 */

/** A key's shape: a prefix ending in `live_` (the contract), then 8 or more key characters. */
const KEY_SHAPED = /(?<![A-Za-z0-9_])[A-Za-z0-9]+_live_[A-Za-z0-9_]{8,}/g;

/** The `[start, end)` offsets of every key-shaped run of `text`. */
export function keyShapedRuns(text: string): (readonly [number, number])[] {
  if (!text.includes("live_")) return [];
  return [...text.matchAll(KEY_SHAPED)].map((m) => [m.index, m.index + m[0].length] as const);
}

/** `text` with every key-shaped run replaced by as many `*` (columns kept for a caret below it). */
export function maskKeyShaped(text: string): string {
  if (!text.includes("live_")) return text;
  return text.replace(KEY_SHAPED, (run) => "*".repeat(run.length));
}
