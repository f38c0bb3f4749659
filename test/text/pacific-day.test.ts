/**
 * The one Pacific day (src/text/pacific-day.ts), memoized per day for the forecast and for the
 * sandbox's daily cap (asked at every send): the memo answers as luxon does at every instant, in
 * any order of asking, across both DST changes (days of 23 and 25 hours) and past its 64 days kept.
 */
import { DateTime } from "luxon";
import { expect, test } from "vitest";
import { seededRandom } from "../../src/sandbox/ids.js";
import { CAP_ZONE, pacificDayOf } from "../../src/text/pacific-day.js";

const HOUR = 3_600_000;

function luxonDay(ms: number): { day: string; startMs: number; endMs: number } {
  const start = DateTime.fromMillis(ms, { zone: CAP_ZONE }).startOf("day");
  return {
    day: start.toFormat("yyyy-MM-dd"),
    startMs: start.toMillis(),
    endMs: start.plus({ days: 1 }).toMillis(),
  };
}

test("every instant's Pacific day is luxon's, asked in any order, across DST and past the memo's size", () => {
  const from = Date.parse("2026-03-06T00:00:00Z");
  const to = Date.parse("2026-11-03T00:00:00Z"); // both 2026 changes, 242 days: the memo is refilled
  const rng = seededRandom(7);
  const instants: number[] = [];
  for (let ms = from; ms < to; ms += HOUR + 7_001) instants.push(ms);
  // Each instant, the last millisecond before a midnight and the midnight itself, in a shuffled order.
  for (let i = 0; i < 400; i++) {
    const { startMs } = luxonDay(from + Math.floor(rng() * (to - from)));
    instants.push(startMs - 1, startMs);
  }
  for (let i = instants.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [instants[i], instants[j]] = [instants[j] as number, instants[i] as number];
  }
  const wrong = instants.filter((ms) => JSON.stringify(pacificDayOf(ms)) !== JSON.stringify(luxonDay(ms)));
  expect(wrong.map((ms) => new Date(ms).toISOString())).toEqual([]);
  expect(
    pacificDayOf(Date.parse("2026-03-08T12:00:00Z")).endMs -
      pacificDayOf(Date.parse("2026-03-08T12:00:00Z")).startMs,
  ).toBe(23 * HOUR);
  expect(
    pacificDayOf(Date.parse("2026-11-01T12:00:00Z")).endMs -
      pacificDayOf(Date.parse("2026-11-01T12:00:00Z")).startMs,
  ).toBe(25 * HOUR);
});
