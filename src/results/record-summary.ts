/** What one recording did (`results record`, `status --record`, `watch --record`), for the views. */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { KeyReads } from "./record.js";
import type { WriteCounts } from "./store.js";

/**
 * Invariants: `counts` is null when nothing could be written (every key failed, the store could not
 * be opened or written), and then `diagnostics` holds an error; `at` and `hour` are the API's clock.
 */
export interface RecordSummary {
  readonly at: string;
  readonly hour: string;
  /** The store, as messages name it. */
  readonly store: string;
  readonly windows: readonly { readonly startDate: string; readonly endDate: string }[];
  readonly keys: readonly KeyReads[];
  /** Projects listed (once each, whatever the keys that listed them). */
  readonly projects: number;
  readonly counts: WriteCounts | null;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Whether a recording left nothing of its hour to record again: the store took its write, no error
 * was found (a file or the database that could not be written), and every key's statistics were read
 * (or the key is one the API refused at its check, which the run never checks again: recording again
 * could not read it). Recording the hour again is safe either way (the write rule adds nothing twice).
 */
export function recordedWhole(s: RecordSummary): boolean {
  return (
    s.counts !== null &&
    s.keys.every((k) => k.ok || !k.retry) &&
    !s.diagnostics.some((d) => d.severity === "error")
  );
}
