/**
 * The fixed instants tests live at. No test reads the wall clock: a sandbox starts at `TEST_NOW`
 * and the command under test sees a machine clock started at the same instant, so a result never
 * depends on the date or the hour the suite runs at (CI runs it again a year and half a day ahead).
 *
 * 2026-05-12T19:00:00Z is a Tuesday afternoon in every one of the contract's six time zones
 * (15:00 New York, 14:00 Chicago, 13:00 Denver, 12:00 Los Angeles, 11:00 Anchorage, 09:00 Honolulu):
 * inside every quiet-hours window, so a schedule a whole number of days ahead lints clean.
 */
export const TEST_NOW = new Date("2026-05-12T19:00:00Z");

/**
 * A machine clock that reads `start` now and then runs at real speed (monotonic), as `Io.clock`
 * and the client's clock expect: rate-limit waits and timeouts still pass, but the calendar is fixed.
 */
export function clockFrom(start: Date): () => number {
  const origin = performance.now();
  return () => start.getTime() + Math.floor(performance.now() - origin);
}
