/**
 * Text shaped like an API key, which no file or output should hold. The contract says every key
 * begins with a fixed prefix ending in `live_`, which design.md names (`pc_live_`,
 * src/contract/limits.ts API_KEY_PREFIX): that prefix, in any case, then 8 or more key characters,
 * is key-shaped, whatever key it is (the run's own keys are masked by the redactor,
 * src/text/redact.ts; this finds one the run was not given). A word that merely contains `_live_`
 * (`event_live_stream2026` in a link) is not one. Pure.
 */
import { API_KEY_PREFIX } from "./limits.js";

/** A key's shape: the prefix (in any case), then 8 or more key characters. */
const KEY_SHAPED = new RegExp(`(?<![A-Za-z0-9_])${API_KEY_PREFIX}[A-Za-z0-9_]{8,}`, "gi");

/** The `[start, end)` offsets of every key-shaped run of `text`. */
export function keyShapedRuns(text: string): (readonly [number, number])[] {
  if (!/live_/i.test(text)) return [];
  return [...text.matchAll(KEY_SHAPED)].map((m) => [m.index, m.index + m[0].length] as const);
}

/** `text` with every key-shaped run replaced by as many `*` (columns kept for a caret below it). */
export function maskKeyShaped(text: string): string {
  if (!/live_/i.test(text)) return text;
  return text.replace(KEY_SHAPED, (run) => "*".repeat(run.length));
}
