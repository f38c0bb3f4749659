/**
 * When `watch --record` records (docs/results.md "Recording from `status` and `watch`"): on its
 * first poll and on the first poll of each new hour of the API's clock, and an hour counts as
 * recorded only once a recording of it **wrote** (its snapshots are in the store). A recording that
 * wrote nothing (the store locked by another recording or unreachable, every key's statistics
 * unreadable) is tried again on a later poll of the same hour, at most once every
 * {@link RECORD_RETRY_MS} of the API's clock: one failure must not lose the hour's snapshots for
 * the rest of it, and a store down for the hour costs a recording's reads once a minute, not once a
 * poll. Pure.
 */

/** The least time, on the API's clock, between a recording that wrote nothing and the next try. */
export const RECORD_RETRY_MS = 60_000;

/**
 * What the recorder knows between polls. `recorded`: the hour (`hourOf`) of the latest recording that
 * wrote; `failed`: the hour and the time of the latest recording that wrote nothing, if none wrote
 * since (null otherwise).
 */
export interface RecordHours {
  readonly recorded: string | null;
  readonly failed: { readonly hour: string; readonly atMs: number } | null;
}

/** Before the first poll: nothing recorded, nothing failed. */
export const NO_RECORDING: RecordHours = { recorded: null, failed: null };

/**
 * Whether a poll at `nowMs` (in the hour `hour`) records: not when the hour was recorded; a new hour
 * at once; the hour of a recording that wrote nothing a minute after it.
 */
export function recordDue(state: RecordHours, hour: string, nowMs: number): boolean {
  if (state.recorded === hour) return false;
  const failed = state.failed;
  return failed === null || failed.hour !== hour || nowMs - failed.atMs >= RECORD_RETRY_MS;
}

/** The state after a recording of `hour` made at `nowMs`, which `wrote` its snapshots or not. */
export function afterRecording(state: RecordHours, hour: string, nowMs: number, wrote: boolean): RecordHours {
  return wrote
    ? { recorded: hour, failed: null }
    : { recorded: state.recorded, failed: { hour, atMs: nowMs } };
}
