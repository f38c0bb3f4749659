/**
 * A send's hours in its recipients' zone: local start and end, and the part that falls outside the
 * send window (quiet hours, 08:00-21:00 by default). The window, its intervals and its boundary rule
 * (half-open: 21:00 is quiet) are src/text/send-window.ts's; this file lays them on instants.
 * Pure (luxon through zone-clock.ts, DST-aware).
 */

import { insideSendWindow, type SendWindow } from "../text/send-window.js";
import { dayWindows, localDay, localTimeOfDay } from "./zone-clock.js";

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
  // The window's intervals that meet [startMs, endMs], clipped, in order.
  const inside: [number, number][] = [];
  const last = localDay(zone, endMs);
  for (let day = localDay(zone, startMs); day <= last; day++)
    for (const [from, to] of dayWindows(zone, day, window)) {
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
  const quiet = quietHours(startMs, endMs, zone, window);
  return quiet && { fromMs: quiet.fromMs, ms: quiet.ms };
}

/**
 * {@link outsideWindow} with its spans (each `[from, to)`, in order; one of no length at the
 * instant for a zero-length send that starts outside): the spans are laid out once.
 */
export function quietHours(
  startMs: number,
  endMs: number,
  zone: string,
  window: SendWindow,
): { readonly fromMs: number; readonly ms: number; readonly spans: readonly [number, number][] } | null {
  if (startMs === endMs)
    return insideSendWindow(window, localTimeOfDay(zone, startMs))
      ? null
      : { fromMs: startMs, ms: 0, spans: [[startMs, startMs]] };
  const spans = outsideWindowSpans(startMs, endMs, zone, window);
  const first = spans[0];
  if (first === undefined) return null;
  return { fromMs: first[0], ms: spans.reduce((sum, [lo, hi]) => sum + hi - lo, 0), spans };
}
