/**
 * When `watch --record` records (docs/results.md "Recording from `status` and `watch`"): on its
 * first poll and on the first poll of each new hour of the API's clock, and an hour counts as
 * recorded only once a recording of it recorded it whole (`recordedWhole` in record-summary.ts:
 * written, no error, every key's statistics read). One that did not (the store locked by another
 * recording or unreachable, a file that could not be written, a key unchecked or its statistics
 * unreadable; not a key the API refused at its check, which the run never checks again) is
 * tried again on a later poll of the same hour, at most once every {@link RECORD_RETRY_MS} of the
 * API's clock: one failure must not lose the hour's snapshots, and a store down for the hour costs
 * a recording's reads once a minute, not once a poll. Recording an hour again writes nothing twice
 * (write-rule.ts). Pure.
 */

/** The least time, on the API's clock, between a recording that was not whole and the next try. */
export const RECORD_RETRY_MS = 60_000;

/**
 * What the recorder knows between polls. `recorded`: the hour (`hourOf`) of the latest whole
 * recording; `failed`: the hour and the time of the latest recording that was not whole, if no whole
 * one came since (null otherwise).
 */
export interface RecordHours {
  readonly recorded: string | null;
  readonly failed: { readonly hour: string; readonly atMs: number } | null;
}

/** Before the first poll: nothing recorded, nothing failed. */
export const NO_RECORDING: RecordHours = { recorded: null, failed: null };

/**
 * Whether a poll at `nowMs` (in the hour `hour`) records: not when the hour was recorded; a new hour
 * at once; the hour of a recording that was not whole a minute after it.
 */
export function recordDue(state: RecordHours, hour: string, nowMs: number): boolean {
  if (state.recorded === hour) return false;
  const failed = state.failed;
  return failed === null || failed.hour !== hour || nowMs - failed.atMs >= RECORD_RETRY_MS;
}

/** The state after a recording of `hour` made at `nowMs`, `whole` or not. */
export function afterRecording(state: RecordHours, hour: string, nowMs: number, whole: boolean): RecordHours {
  return whole
    ? { recorded: hour, failed: null }
    : { recorded: state.recorded, failed: { hour, atMs: nowMs } };
}
