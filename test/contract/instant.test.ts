/** The one rule for comparing two versions (`updated_at`): the same instant however it is written. */
import { describe, expect, test } from "vitest";
import { instantMs, sameInstant } from "../../src/contract/instant.js";

const AT = "2026-11-20T10:00:00Z";

describe("sameInstant", () => {
  test.each([
    ["Z and .000Z", AT, "2026-11-20T10:00:00.000Z"],
    ["Z and +00:00", AT, "2026-11-20T10:00:00+00:00"],
    ["Z and -00:00", AT, "2026-11-20T10:00:00-00:00"],
    ["Z and -05:00", AT, "2026-11-20T05:00:00-05:00"],
    ["Z and +05:30 across midnight", "2026-11-20T20:00:00Z", "2026-11-21T01:30:00+05:30"],
    ["Z and an offset without a colon", AT, "2026-11-20T05:00:00-0500"],
    ["minutes only and seconds", "2026-11-20T10:00Z", AT],
    ["milliseconds and microseconds", "2026-11-20T10:00:00.123Z", "2026-11-20T10:00:00.123000+00:00"],
    ["lowercase t and z", AT, "2026-11-20t10:00:00z"],
    ["the same string", AT, AT],
    ["a leap day", "2028-02-29T23:59:59.999Z", "2028-03-01T00:59:59.999+01:00"],
  ])("%s: the same instant", (_name, a, b) => {
    expect(sameInstant(a, b)).toBe(true);
    expect(sameInstant(b, a)).toBe(true);
  });

  test.each([
    ["one millisecond apart", "2026-11-20T10:00:00.000Z", "2026-11-20T10:00:00.001Z"],
    ["one microsecond apart", "2026-11-20T10:00:00.000001Z", "2026-11-20T10:00:00.000002Z"],
    ["the same wall time in another zone", AT, "2026-11-20T10:00:00-05:00"],
    ["one second apart", AT, "2026-11-20T10:00:01Z"],
  ])("%s: different", (_name, a, b) => {
    expect(sameInstant(a, b)).toBe(false);
    expect(sameInstant(b, a)).toBe(false);
  });

  test.each([
    ["empty", ""],
    ["not a date", "yesterday"],
    ["no zone (local time: which moment depends on the machine)", "2026-11-20T10:00:00"],
    ["a date alone", "2026-11-20"],
    ["February 30", "2026-02-30T10:00:00Z"],
    ["month 13", "2026-13-01T10:00:00Z"],
    ["hour 24", "2026-11-20T24:00:00Z"],
    ["second 60", "2026-11-20T10:00:60Z"],
    ["an offset of hours alone", "2026-11-20T10:00:00+00"],
    ["a human date", "Fri, 20 Nov 2026 10:00:00 GMT"],
  ])("unreadable (%s) on either side: different, even from itself", (_name, bad) => {
    expect(sameInstant(bad, AT)).toBe(false);
    expect(sameInstant(AT, bad)).toBe(false);
    expect(sameInstant(bad, bad)).toBe(false);
    expect(instantMs(bad)).toBeUndefined();
  });

  test("texts read again (kept by text) and past the 10,000 kept give the same answers", () => {
    const base = Date.UTC(2026, 10, 20, 10);
    const wrong: string[] = [];
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 10_050; i += 1) {
        const text = new Date(base + i * 1_001).toISOString();
        if (instantMs(text) !== base + i * 1_001) wrong.push(`round ${round}: ${text}`);
      }
    expect(wrong).toEqual([]);
    expect(instantMs("2026-02-30T10:00:00Z")).toBeUndefined();
    expect(instantMs("2026-02-30T10:00:00Z")).toBeUndefined();
    expect(sameInstant(AT, "2026-11-20T05:00:00-05:00")).toBe(true);
  });

  test("instantMs is the moment in ms, whatever the offset", () => {
    expect(instantMs("2026-11-20T05:00:00.250-05:00")).toBe(Date.UTC(2026, 10, 20, 10, 0, 0, 250));
    expect(instantMs("0001-01-01T00:00:00Z")).toBe(Date.parse("0001-01-01T00:00:00Z"));
  });
});
