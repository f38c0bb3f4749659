/**
 * The one send window reads each zone's clock from memoized offsets (one luxon lookup per zone and
 * UTC day, per quarter hour only on a day the offset changes) and lays local midnights and window
 * edges by arithmetic where the offset is steady (src/jurisdictions/zone-days.ts; issue 36: a cold
 * forecast of 1,000 projects made thousands of luxon lookups). It must judge every send as luxon read instant by instant does: here
 * against such a reading, across the DST changes of zones with whole-hour, half-hour and 45-minute
 * offsets, a 30-minute change (Lord Howe) and changes at midnight (Santiago, Havana).
 */
import { DateTime } from "luxon";
import { describe, expect, test } from "vitest";
import { judgeSend, sendRules } from "../../src/jurisdictions/index.js";
import { type SendWindow, windowMinutes } from "../../src/text/send-window.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Each zone with days of 2026 around which it is judged: the days its offset changes (checked
 * below), or one day for a zone without DST.
 */
const ZONES: readonly (readonly [string, readonly string[], "changes" | "steady"])[] = [
  ["America/New_York", ["2026-03-08", "2026-11-01"], "changes"],
  ["America/Phoenix", ["2026-03-08"], "steady"],
  ["Pacific/Honolulu", ["2026-11-01"], "steady"],
  ["America/St_Johns", ["2026-03-08", "2026-11-01"], "changes"],
  ["Australia/Lord_Howe", ["2026-04-05", "2026-10-04"], "changes"],
  ["Pacific/Chatham", ["2026-04-05", "2026-09-27"], "changes"],
  ["America/Santiago", ["2026-04-05", "2026-09-06"], "changes"],
  ["America/Havana", ["2026-03-08", "2026-11-01"], "changes"],
  ["Asia/Kolkata", ["2026-06-01"], "steady"],
];

const WINDOWS: readonly SendWindow[] = [
  { from: "08:00", to: "21:00" },
  { from: "00:00", to: "02:30" },
  { from: "00:15", to: "23:45" },
  { from: "01:30", to: "03:00" },
];

/**
 * Luxon's answer to a question already asked, kept by the question (each is a pure function of its
 * input: the same answer, not recomputed for each of the 16 windows and lengths judged from one start).
 */
const ASKED = new Map<string, unknown>();
function luxon<T>(question: string, answer: () => T): T {
  if (!ASKED.has(question)) ASKED.set(question, answer());
  return ASKED.get(question) as T;
}

/** The local day holding `ms` in `zone` as luxon reads it: its first instant and the next day's. */
function luxonDay(zone: string, ms: number): { readonly startMs: number; readonly endMs: number } {
  return luxon(`day ${zone} ${ms}`, () => {
    const date = DateTime.fromMillis(ms, { zone }).toISODate() as string;
    const start = DateTime.fromISO(date, { zone }).startOf("day");
    return { startMs: start.toMillis(), endMs: start.plus({ days: 1 }).toMillis() };
  });
}

/**
 * The parts of `[start, end)` outside `window` in `zone`, with luxon read at every local day and
 * window edge (no offsets remembered, no arithmetic): a day runs from luxon's start of its date to
 * that plus a day, an edge is that start set to the edge's hour and minute.
 */
function outsideByLuxon(zone: string, window: SendWindow, start: number, end: number): [number, number][] {
  const inside: [number, number][] = [];
  for (let day = luxonDay(zone, start); day.startMs < end; day = luxonDay(zone, day.endMs)) {
    const at = (m: number) =>
      m >= 24 * 60
        ? day.endMs
        : luxon(`edge ${zone} ${day.startMs} ${m}`, () =>
            DateTime.fromMillis(day.startMs, { zone })
              .set({ hour: Math.floor(m / 60), minute: m % 60 })
              .toMillis(),
          );
    for (const [a, b] of windowMinutes(window)) {
      const lo = Math.max(at(a), start);
      const hi = Math.min(at(b), end);
      if (hi > lo) inside.push([lo, hi]);
    }
  }
  inside.sort((x, y) => x[0] - y[0]);
  const outside: [number, number][] = [];
  let cursor = start;
  for (const [lo, hi] of inside) {
    if (lo > cursor) outside.push([cursor, lo]);
    cursor = Math.max(cursor, hi);
  }
  if (end > cursor) outside.push([cursor, end]);
  return outside;
}

describe("the send window's clock agrees with luxon across offset changes", () => {
  test.each(ZONES)("%s", (zone, days, kind) => {
    // The offset does change around each day of a zone with changes (else the case tests nothing).
    for (const date of days) {
      const at = Date.parse(`${date}T00:00:00Z`);
      const before = DateTime.fromMillis(at - 36 * HOUR, { zone }).offset;
      expect(before === DateTime.fromMillis(at + 36 * HOUR, { zone }).offset).toBe(kind === "steady");
    }
    // Each send is judged and compared here; the disagreements are listed and asserted once per zone
    // (about 2,600 comparisons a zone: one expect each was most of the file's time).
    const disagreements: string[] = [];
    let compared = 0;
    for (const window of WINDOWS) {
      const rules = sendRules({ zones: [zone], policyWindow: window, withoutFederal: true });
      for (const date of days) {
        const from = Date.parse(`${date}T00:00:00Z`) - 36 * HOUR;
        for (let start = from; start < from + 72 * HOUR; start += 53 * MINUTE + 1_001) {
          for (const length of [0, 50 * MINUTE, 7 * HOUR, 30 * HOUR]) {
            compared += 1;
            const judged = judgeSend(rules, start, start + length);
            const send = `${window.from}-${window.to} from ${new Date(start).toISOString()} for ${length / MINUTE} min`;
            if (length === 0) {
              const breach = judged.breaches.length > 0;
              const luxonOutside = outsideByLuxon(zone, window, start, start + 1).length > 0;
              if (breach !== luxonOutside)
                disagreements.push(`${send}: breach ${breach}, luxon outside ${luxonOutside}`);
              continue;
            }
            const outside = JSON.stringify(judged.outside.map(([a, b]) => [a, b]));
            const luxonOutside = JSON.stringify(outsideByLuxon(zone, window, start, start + length));
            if (outside !== luxonOutside)
              disagreements.push(`${send}: outside ${outside}, luxon ${luxonOutside}`);
          }
        }
      }
    }
    // 82 starts 53 minutes apart over 72 hours, four lengths, each window and day.
    expect(compared).toBe(WINDOWS.length * days.length * 82 * 4);
    expect(disagreements).toEqual([]);
  });
});
