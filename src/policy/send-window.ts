/** Whether a moment falls within a daily `[from, to)` window in a timezone. Pure (luxon). */
import { DateTime } from "luxon";
import { minutesOfDay as minutesOf } from "../text/minutes-of-day.js";
import type { SendWindow } from "./model.js";

/**
 * The local time of `at` in `zone` (`HH:MM`) and whether it is inside the window. A window whose
 * `to` is before its `from` wraps past midnight (`20:00` to `08:00`).
 */
export function inSendWindow(
  at: Date,
  zone: string,
  window: SendWindow,
): { readonly inside: boolean; readonly local: string } {
  const local = DateTime.fromJSDate(at, { zone });
  const minute = local.hour * 60 + local.minute;
  const from = minutesOf(window.from);
  const to = minutesOf(window.to);
  const inside = from <= to ? minute >= from && minute < to : minute >= from || minute < to;
  return { inside, local: local.toFormat("HH:mm") };
}
