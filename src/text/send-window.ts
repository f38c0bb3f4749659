/**
 * The one send window: the local hours of a day in which a text may start going out, and its one
 * boundary rule. Lint's quiet hours, the policy's `send_window`, the forecast's quiet-hours spans and
 * the gallery's timeline all read a window through this file (docs/campaign-files.md "Send window").
 *
 * The boundary rule is half-open, `[from, to)`: a send at `from` (08:00:00) is inside, a send at `to`
 * (21:00:00) is outside, and so is every instant after it (21:00:01), to the millisecond. That is how
 * TCPA-style quiet hours are read ("no texts before 8 a.m. or after 9 p.m." leaves 21:00 itself to
 * the quiet side) and how a day's windows tile: the window's end is the next quiet span's start.
 * Times of day are the recipients' wall clock in the schedule's zone (luxon, DST-aware: on the day
 * the clocks go forward or back the window still opens and closes at the wall-clock times). Pure.
 */
import { DateTime } from "luxon";
import { minutesOfDay } from "./minutes-of-day.js";
import { FIXED_LOCALE, zoneNamed } from "./zone-offsets.js";

/**
 * A daily window of local time, `[from, to)`. Invariant: `from` and `to` are `HH:MM` in 24-hour form
 * (`to` may be `24:00`, the next midnight); a `to` before `from` wraps past midnight (`20:00` to
 * `08:00` allows the evening and the early morning).
 */
export interface SendWindow {
  readonly from: string;
  readonly to: string;
}

/** TCPA quiet hours: texts may go out from 8 a.m. until (not including) 9 p.m., recipients' time. */
export const DEFAULT_SEND_WINDOW: SendWindow = { from: "08:00", to: "21:00" };

const DAY_MINUTES = 24 * 60;
const MINUTE_MS = 60_000;

/**
 * The allowed intervals of one local day as `[from, to)` minutes after its midnight (1440 is the
 * next midnight): one interval, or two for a window that wraps past midnight. In order.
 */
export function windowMinutes(window: SendWindow): readonly (readonly [number, number])[] {
  const from = minutesOfDay(window.from);
  const to = minutesOfDay(window.to);
  return from <= to
    ? [[from, to]]
    : [
        [0, to],
        [from, DAY_MINUTES],
      ];
}

/** The wall-clock fields of a local time of day (a luxon DateTime has them). */
export interface LocalTimeOfDay {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

/**
 * The boundary rule itself: is this local time of day inside the window? Half-open to the
 * millisecond: `from` is inside, `to` and anything after it is outside.
 */
export function insideSendWindow(window: SendWindow, local: LocalTimeOfDay): boolean {
  const ms = ((local.hour * 60 + local.minute) * 60 + local.second) * 1000 + local.millisecond;
  return windowMinutes(window).some(([from, to]) => from * MINUTE_MS <= ms && ms < to * MINUTE_MS);
}

/** Does the window allow a send starting in minute `minute` (0-1439) of the local day? */
export function windowCoversMinute(window: SendWindow, minute: number): boolean {
  return insideSendWindow(window, {
    hour: Math.floor(minute / 60),
    minute: minute % 60,
    second: 0,
    millisecond: 0,
  });
}

/**
 * The local time of `at` in `zone` (`HH:mm`, and `HH:mm:ss` when the seconds are not zero) and
 * whether it is inside the window. `zone` is an IANA zone luxon knows.
 */
export function inSendWindow(
  at: Date | number,
  zone: string,
  window: SendWindow,
): { readonly inside: boolean; readonly local: string } {
  const local = DateTime.fromMillis(typeof at === "number" ? at : at.getTime(), {
    zone: zoneNamed(zone),
    ...FIXED_LOCALE,
  });
  return { inside: insideSendWindow(window, local), local: localClock(local) };
}

/** `HH:mm`, or `HH:mm:ss` when the seconds matter (21:00:01 is not 21:00). */
export function localClock(local: LocalTimeOfDay & { toFormat(format: string): string }): string {
  return local.toFormat(local.second === 0 && local.millisecond === 0 ? "HH:mm" : "HH:mm:ss");
}

/** How messages name a window: `08:00-21:00`; the docs say that `to` itself is outside. */
export function windowText(window: SendWindow): string {
  return `${window.from}-${window.to}`;
}
