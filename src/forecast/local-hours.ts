/**
 * A send's hours in its recipients' zone: local start and end, and the part that falls outside the
 * send window (quiet hours, 08:00-21:00 by default). Pure (luxon through zone-clock.ts, DST-aware).
 */

import type { SendWindowHours } from "./types.js";
import { dayWindows, localDate, nextDate } from "./zone-clock.js";

export { localTime } from "./zone-clock.js";

export const DEFAULT_SEND_WINDOW: SendWindowHours = { from: "08:00", to: "21:00" };

const minutesOf = (hhmm: string): number => {
  const [h = "0", m = "0"] = hhmm.split(":");
  return Number(h) * 60 + Number(m);
};

/** The allowed local intervals of one local day, as [from, to) minutes after its midnight. */
function allowedMinutes(window: SendWindowHours): readonly (readonly [number, number])[] {
  const from = minutesOf(window.from);
  const to = minutesOf(window.to);
  return from <= to
    ? [[from, to]]
    : [
        [0, to],
        [from, 24 * 60],
      ];
}

/**
 * The time of `[startMs, endMs]` outside the window in `zone`: its first instant and its length.
 * A zero-length send (one instant) counts when that instant is outside.
 */
export function outsideWindow(
  startMs: number,
  endMs: number,
  zone: string,
  window: SendWindowHours,
): { readonly fromMs: number; readonly ms: number } | null {
  const allowed = allowedMinutes(window);
  // The window's intervals that meet [startMs, endMs], clipped, in order.
  const inside: [number, number][] = [];
  const last = localDate(zone, endMs);
  for (let date = localDate(zone, startMs); date <= last; date = nextDate(date)) {
    for (const [from, to] of dayWindows(zone, date, allowed)) {
      if (startMs === endMs) {
        if (from <= startMs && startMs < to) return null;
        continue;
      }
      const lo = Math.max(from, startMs);
      const hi = Math.min(to, endMs);
      if (hi > lo) inside.push([lo, hi]);
    }
  }
  if (startMs === endMs) return { fromMs: startMs, ms: 0 };
  let cursor = startMs;
  let first: number | null = null;
  let outside = 0;
  for (const [lo, hi] of inside) {
    if (lo > cursor) {
      first ??= cursor;
      outside += lo - cursor;
    }
    cursor = Math.max(cursor, hi);
  }
  if (endMs > cursor) {
    first ??= cursor;
    outside += endMs - cursor;
  }
  return first === null ? null : { fromMs: first, ms: outside };
}
