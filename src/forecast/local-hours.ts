/**
 * A send's hours in its recipients' zone: local start and end, and the part that falls outside the
 * send window (quiet hours, 08:00-21:00 by default). The window, its intervals and its boundary rule
 * (half-open: 21:00 is quiet) are src/text/send-window.ts's; this file lays them on instants.
 * Pure (luxon through zone-clock.ts, DST-aware).
 */

import { inSendWindow, type SendWindow, windowMinutes } from "../text/send-window.js";
import { dayWindows, localDate, nextDate } from "./zone-clock.js";

export { localTime } from "./zone-clock.js";

/**
 * The parts of `[startMs, endMs]` outside the window in `zone`, in order, as instants (none for a
 * zero-length send; see outsideWindow).
 */
export function outsideWindowSpans(
  startMs: number,
  endMs: number,
  zone: string,
  window: SendWindow,
): [number, number][] {
  if (endMs <= startMs) return [];
  const allowed = windowMinutes(window);
  // The window's intervals that meet [startMs, endMs], clipped, in order.
  const inside: [number, number][] = [];
  const last = localDate(zone, endMs);
  for (let date = localDate(zone, startMs); date <= last; date = nextDate(date))
    for (const [from, to] of dayWindows(zone, date, allowed)) {
      const lo = Math.max(from, startMs);
      const hi = Math.min(to, endMs);
      if (hi > lo) inside.push([lo, hi]);
    }
  inside.sort((x, y) => x[0] - y[0]);
  const outside: [number, number][] = [];
  let cursor = startMs;
  for (const [lo, hi] of inside) {
    if (lo > cursor) outside.push([cursor, lo]);
    cursor = Math.max(cursor, hi);
  }
  if (endMs > cursor) outside.push([cursor, endMs]);
  return outside;
}

/**
 * The time of `[startMs, endMs]` outside the window in `zone`: its first instant and its length.
 * A zero-length send (one instant) counts when that instant is outside.
 */
export function outsideWindow(
  startMs: number,
  endMs: number,
  zone: string,
  window: SendWindow,
): { readonly fromMs: number; readonly ms: number } | null {
  if (startMs === endMs)
    return inSendWindow(startMs, zone, window).inside ? null : { fromMs: startMs, ms: 0 };
  const spans = outsideWindowSpans(startMs, endMs, zone, window);
  const first = spans[0];
  if (first === undefined) return null;
  return { fromMs: first[0], ms: spans.reduce((sum, [lo, hi]) => sum + hi - lo, 0) };
}
