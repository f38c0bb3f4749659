/**
 * A preload that moves the process clock: `Date.now()` and `new Date()` (no arguments) read the
 * system clock shifted by CAMPAIGNCTL_TEST_CLOCK_SHIFT_DAYS days (may be negative or fractional).
 * Used by `.ci/run` to run the whole suite a year and half a day ahead, so a test that depends on the date or the hour
 * fails now rather than on the day it would have:
 *
 *   CAMPAIGNCTL_TEST_CLOCK_SHIFT_DAYS=365.5 NODE_OPTIONS="--import $PWD/test/support/shift-clock.mjs" npx vitest run
 *
 * NODE_OPTIONS reaches every child process (vitest's forks, the built CLI the tests spawn, in
 * whatever directory), so they all live on the same moved clock; hence the absolute path. `performance.now()` and timers are left alone: only the
 * calendar moves, not the passage of time. Without the variable (or with 0) nothing is changed.
 */
const days = Number(process.env.CAMPAIGNCTL_TEST_CLOCK_SHIFT_DAYS ?? "0");
if (!Number.isFinite(days)) throw new Error("CAMPAIGNCTL_TEST_CLOCK_SHIFT_DAYS must be a number of days");
const offsetMs = Math.round(days * 86_400_000);

if (offsetMs !== 0 && globalThis.__campaignctlClockShift === undefined) {
  const RealDate = globalThis.Date;
  const realNow = RealDate.now.bind(RealDate);
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + offsetMs);
      else super(...args);
    }
    static now() {
      return realNow() + offsetMs;
    }
  }
  // Date() called as a function returns the current time as a string.
  const ShiftedDateFunction = new Proxy(ShiftedDate, {
    apply: () => new ShiftedDate().toString(),
  });
  Object.defineProperty(globalThis, "__campaignctlClockShift", { value: offsetMs });
  globalThis.Date = ShiftedDateFunction;
}
