/**
 * The one human form of a duration, for every view (progress lines, reports, diagnostics): rounded
 * first to a precision that suits its size, then split into units, so that rounding can never show
 * `60s` or `1m 60s`. Pure. The JUnit `time` attribute (seconds as a decimal number) is a machine
 * format and is serialised where it is written, not here.
 */
import { Duration } from "luxon";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The units shown from a minute up, largest first: luxon's name and the suffix shown. */
const UNITS = [
  ["days", "d"],
  ["hours", "h"],
  ["minutes", "m"],
  ["seconds", "s"],
] as const;

/**
 * The rounding step for a duration of `ms`: whole milliseconds under a second, tenths of a second
 * under 10 s, whole seconds under a minute; from a minute up, one unit below the largest (seconds
 * under an hour, minutes under a day, hours from a day).
 */
function step(ms: number): number {
  if (ms < SECOND) return 1;
  if (ms < 10 * SECOND) return 100;
  if (ms < HOUR) return SECOND;
  if (ms < DAY) return MINUTE;
  return HOUR;
}

/**
 * `ms` for people: `0s`, `850ms`, `1.5s`, `9.9s`, `59s`, `1m`, `1m 5s`, `59m 59s`, `1h`, `1h 30m`,
 * `23h 59m`, `1d`, `1d 4h`. At most two units, a zero second one left out; suffixes as the duration
 * flags write them (`ms`, `s`, `m`, `h`, plus `d`). Rounded half up at the step that suits the size
 * (see `step`), and the rounded value is what is split, so 59.5 s shows `1m` and 119.6 s `2m`.
 * Negative or NaN shows `0s`.
 */
export function formatDuration(ms: number): string {
  const raw = ms > 0 ? ms : 0;
  const by = step(raw);
  // A value rounded up to the next size's boundary is a multiple of that size's (coarser) step.
  const rounded = Math.round(raw / by) * by;
  if (rounded === 0) return "0s";
  if (rounded < SECOND) return `${rounded}ms`;
  if (rounded < MINUTE) return `${rounded / SECOND}s`;
  const split = Duration.fromMillis(rounded).shiftTo(...UNITS.map(([unit]) => unit));
  const first = UNITS.findIndex(([unit]) => split.get(unit) > 0);
  return UNITS.slice(first, first + 2)
    .filter(([unit]) => split.get(unit) > 0)
    .map(([unit, suffix]) => `${split.get(unit)}${suffix}`)
    .join(" ");
}
