/** The one send window (src/text/send-window.ts): its boundary rule over the shared table, its intervals. */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SEND_WINDOW,
  inSendWindow,
  windowCoversMinute,
  windowMinutes,
} from "../../src/text/send-window.js";
import { SEND_WINDOW_BOUNDARIES } from "../fixtures/send-window-boundaries.js";

describe("inSendWindow, half-open [from, to)", () => {
  it.each(SEND_WINDOW_BOUNDARIES)("$name", (row) => {
    expect(inSendWindow(new Date(row.at), row.zone, row.window)).toEqual({
      inside: row.inside,
      local: row.local,
    });
  });

  it("the table covers both sides of every edge it names", () => {
    const insides = new Set(SEND_WINDOW_BOUNDARIES.map((r) => r.inside));
    expect(insides).toEqual(new Set([true, false]));
  });
});

describe("windowMinutes and windowCoversMinute", () => {
  it("is one interval, or two past midnight", () => {
    expect(windowMinutes(DEFAULT_SEND_WINDOW)).toEqual([[480, 1260]]);
    expect(windowMinutes({ from: "20:00", to: "08:00" })).toEqual([
      [0, 480],
      [1200, 1440],
    ]);
    expect(windowMinutes({ from: "00:00", to: "24:00" })).toEqual([[0, 1440]]);
  });

  it("covers the minute of from, not the minute of to", () => {
    expect(windowCoversMinute(DEFAULT_SEND_WINDOW, 480)).toBe(true);
    expect(windowCoversMinute(DEFAULT_SEND_WINDOW, 479)).toBe(false);
    expect(windowCoversMinute(DEFAULT_SEND_WINDOW, 1259)).toBe(true);
    expect(windowCoversMinute(DEFAULT_SEND_WINDOW, 1260)).toBe(false);
  });
});
