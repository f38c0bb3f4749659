import { describe, expect, test } from "vitest";
import { formatDuration } from "../../src/text/duration.js";

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;

describe("formatDuration", () => {
  test.each([
    [0, "0s"],
    [0.4, "0s"],
    [-5, "0s"],
    [Number.NaN, "0s"],
    [1, "1ms"],
    [850, "850ms"],
    [999, "999ms"],
    [999.5, "1s"],
    [1000, "1s"],
    [1049, "1s"],
    [1050, "1.1s"],
    [1500, "1.5s"],
    [9_949, "9.9s"],
    [9_950, "10s"],
    [10_000, "10s"],
    [10_499, "10s"],
    [59_499, "59s"],
    [59_500, "1m"],
    [59_999, "1m"],
    [60_000, "1m"],
    [61_000, "1m 1s"],
    [65_000, "1m 5s"],
    [119_499, "1m 59s"],
    [119_600, "2m"],
    [3_599_499, "59m 59s"],
    [3_599_500, "1h"],
    [3_599_999, "1h"],
    [3_600_000, "1h"],
    [3_630_000, "1h 1m"],
    [5_400_000, "1h 30m"],
    [5_429_999, "1h 30m"],
    [5_430_000, "1h 31m"],
    [86_340_000, "23h 59m"],
    [86_369_999, "23h 59m"],
    [86_370_000, "1d"],
    [86_399_999, "1d"],
    [86_400_000, "1d"],
    [90_000_000, "1d 1h"],
    [100_800_000, "1d 4h"],
    [172_799_999, "2d"],
    [400 * D + 3 * H, "400d 3h"],
  ])("%d ms is %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  // The two sweeps below check about 41,000 durations. Each finding is collected and the list
  // compared with [] once: an `expect` per duration (about 110,000 of them) cost 1.3 s of CPU,
  // nearly all of it in the assertion library, for the same checks (issue 35).

  /** Every ms around each size boundary, and a sweep across: no unit ever shows its own overflow. */
  test("rounding never shows a full unit (60s, 60m, 24h, 1000ms) or a zero part", () => {
    const boundaries = [S, 10 * S, MIN, 2 * MIN, H, 2 * H, D, 2 * D];
    const samples = [
      ...boundaries.flatMap((b) => Array.from({ length: 2001 }, (_, i) => b - 1000 + i)),
      ...Array.from({ length: 5_000 }, (_, i) => i * 19_997),
      ...Array.from({ length: 5_000 }, (_, i) => i * 2_399_999),
    ];
    const limit: Readonly<Record<string, number>> = { ms: 1000, s: 60, m: 60, h: 24, d: Infinity };
    const shape = /^(0s|[1-9]\d{0,2}ms|[1-9]\d?(\.\d)?s|\d+[dhms]( \d+[hms])?)$/;
    const wrong: string[] = [];
    for (const ms of samples) {
      const text = formatDuration(ms);
      if (!shape.test(text)) wrong.push(`${ms} shown as ${text}: not a duration's shape`);
      if (text === "0s") continue;
      for (const part of text.split(" ")) {
        const [, value = "", unit = ""] = /^([\d.]+)(ms|[dhms])$/.exec(part) ?? [];
        if (!(Number(value) > 0)) wrong.push(`${ms} shown as ${text}: a part not above 0`);
        if (!(Number(value) < (limit[unit] ?? 0))) wrong.push(`${ms} shown as ${text}: a full ${unit}`);
      }
    }
    expect(samples.length).toBe(26_008);
    expect(wrong).toEqual([]);
  });

  test("the rounded value is what is shown: never more than half a step away", () => {
    const unit = { d: D, h: H, m: MIN, s: S } as const;
    const parse = (text: string): number =>
      text.endsWith("ms")
        ? Number(text.slice(0, -2))
        : text
            .split(" ")
            .reduce(
              (sum, part) => sum + Number(part.slice(0, -1)) * unit[part.slice(-1) as keyof typeof unit],
              0,
            );
    const wrong: string[] = [];
    for (const ms of Array.from({ length: 5_000 }, (_, i) => Math.round(i ** 2.4 * 7.3))) {
      const shown = parse(formatDuration(ms));
      const step = ms < S ? 1 : ms < 10 * S ? 100 : ms < H ? S : ms < D ? MIN : H;
      // Written so that a NaN (a part that does not parse) is wrong too, as with toBeLessThanOrEqual.
      if (!(Math.abs(shown - ms) <= step / 2)) wrong.push(`${ms} shown as ${formatDuration(ms)}`);
    }
    expect(wrong).toEqual([]);
  });
});
