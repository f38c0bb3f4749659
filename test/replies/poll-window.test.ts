/** Where a pass reads from and what it leaves in the cursor (src/replies/poll-window.ts). */
import { describe, expect, it } from "vitest";
import {
  cursorAfterPass,
  markedAt,
  nextPassAt,
  PASS_OVERLAP_MS,
  passFloor,
} from "../../src/replies/poll-window.js";
import type { PollCursor } from "../../src/replies/state-file.js";

const NOW = Date.parse("2026-12-01T15:00:00.000Z");
const HOUR = 3_600_000;
const cursor = (updatedSince: string | null, lastPassAt: string | null = null): PollCursor => ({
  updatedSince,
  lastPassAt,
  settled: {},
});

describe("the poll window", () => {
  it("reads the first window, then back from the cursor by the overlap, from now when the clock went back", () => {
    expect(passFloor(cursor(null), NOW, 24 * HOUR)).toBe(NOW - 24 * HOUR);
    expect(passFloor(cursor("2026-12-01T14:00:00.000Z"), NOW, 24 * HOUR)).toBe(NOW - HOUR - PASS_OVERLAP_MS);
    // The API's clock stepped 2 h back: the cursor is in its future.
    expect(passFloor(cursor("2026-12-01T17:00:00.000Z"), NOW, 24 * HOUR)).toBe(NOW - PASS_OVERLAP_MS);
    // Never further back than the API lists (90 days).
    expect(passFloor(cursor("2026-01-01T00:00:00.000Z"), NOW, 24 * HOUR)).toBe(NOW - 90 * 24 * HOUR + 60_000);
    expect(PASS_OVERLAP_MS).toBeGreaterThan(HOUR);
  });

  it("makes the next pass due a minute after the last, or now when the clock went back before it", () => {
    expect(nextPassAt(cursor(null), NOW, 60_000)).toBe(Number.NEGATIVE_INFINITY);
    expect(nextPassAt(cursor(null, "2026-12-01T14:59:30.000Z"), NOW, 60_000)).toBe(NOW + 30_000);
    expect(nextPassAt(cursor(null, "2026-12-01T17:00:00.000Z"), NOW, 60_000)).toBe(NOW);
  });

  it("moves the cursor forward only past what is settled, and back to a conversation left open", () => {
    const t = (h: number) => new Date(NOW + h * HOUR).toISOString();
    expect(cursorAfterPass(t(-1), t(0), null)).toBe(t(0));
    // A pass that only read late inbounds does not move the cursor back.
    expect(cursorAfterPass(t(0), t(-1), null)).toBe(t(0));
    // A conversation left open stays in the next pass's window: the cursor goes no later than it.
    expect(cursorAfterPass(t(0), t(-2), t(-1))).toBe(t(-1));
    expect(cursorAfterPass(t(-3), t(-2), t(-1))).toBe(t(-2));
    expect(cursorAfterPass(null, null, null)).toBeNull();
  });

  it("reads the marks of conversations settled, in this version's form and the older one", () => {
    expect(markedAt("2026-12-01T15:00:00.000Z#3")).toBe(NOW);
    expect(markedAt("2026-12-01T15:00:00.000Z")).toBe(NOW);
  });
});
