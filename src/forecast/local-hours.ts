/**
 * A send's hours in one zone against one window: the part of `[startMs, endMs]` outside it. The
 * window, its intervals and its boundary rule (half-open: 21:00 is quiet) are
 * src/text/send-window.ts's, and the judging of a stretch of time is src/jurisdictions/send-rules.ts's
 * (the one send window the forecast judges each project by); this file reads one window alone.
 * Pure (luxon, DST-aware).
 */

import { judgeSend, sendRules } from "../jurisdictions/index.js";
import type { SendWindow } from "../text/send-window.js";

export { localTime } from "./zone-clock.js";

/** `window` alone in `zone`, without the federal hours. */
const only = (zone: string, window: SendWindow) =>
  sendRules({ zones: [zone], policyWindow: window, withoutFederal: true });

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
  return judgeSend(only(zone, window), startMs, endMs).outside.map(([a, b]) => [a, b]);
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
  const first = judgeSend(only(zone, window), startMs, endMs).breaches[0];
  return first === undefined ? null : { fromMs: first.fromMs, ms: first.ms };
}
