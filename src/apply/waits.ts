/** Waiting on the injected clock, cut short by the abort signal. */

// The write-retry curve and the abortable wait live with the client (src/api/write-retry.ts), shared
// with watch's guard pauses.
export { RESEND_CEILING_MS, resendDelayMs, sleepUnlessAborted } from "../api/write-retry.js";

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
