import { describe, expect, it } from "vitest";
import { GSM7_BASIC, GSM7_EXTENSION, gsm7Septets } from "../../src/message/gsm7.js";
import { analyzeSegments } from "../../src/message/segments.js";

const digits = (n: number) => Array.from({ length: n }, (_, i) => String((i + 1) % 10)).join("");

// Segment counts at every boundary are in the shared vectors (segment-vectors.test.ts); this file
// checks how the planner splits and what else it reports.

describe("analyzeSegments: splitting never breaks a pair", () => {
  it("moves an escape pair that would straddle the boundary to the next segment", () => {
    // 152 digits then € (2 septets): 154 > 153, so € starts segment 2.
    const text = `${digits(152)}€${digits(10)}`;
    const info = analyzeSegments(text);
    expect(info.segmentTexts).toEqual([digits(152), `€${digits(10)}`]);
  });
  it("fills a segment exactly to 153 septets when the pair fits", () => {
    const text = `${digits(151)}€${digits(10)}`;
    expect(analyzeSegments(text).segmentTexts).toEqual([`${digits(151)}€`, digits(10)]);
  });
  it("moves a surrogate pair that would straddle the boundary to the next segment", () => {
    // 66 units then an emoji (2 units): 68 > 67.
    const text = `${"Á".repeat(66)}😀${"Á".repeat(10)}`;
    const info = analyzeSegments(text);
    expect(info.segmentTexts).toEqual(["Á".repeat(66), `😀${"Á".repeat(10)}`]);
    expect(info.segments).toBe(2);
  });
  it("can add a segment because of a moved pair", () => {
    // 152 + 2 + 152 = 306 septets, but € cannot straddle: 152 | €+151 | 1.
    const text = `${digits(152)}€${digits(152)}`;
    const info = analyzeSegments(text);
    expect(info.units).toBe(306);
    expect(info.segments).toBe(3);
  });
  it("keeps a grapheme cluster (skin-tone emoji) together", () => {
    const text = `${"Á".repeat(65)}👍🏽xx`;
    const info = analyzeSegments(text);
    expect(info.segmentTexts).toEqual(["Á".repeat(65), "👍🏽xx"]);
    expect(info.characters).toBe(68);
  });
});

describe("analyzeSegments: reports", () => {
  it("lists the characters that forced UCS-2, once each, in order", () => {
    const info = analyzeSegments("Hi Đặng 😀 and Đ again");
    expect(info.nonGsmCharacters).toEqual(["Đ", "ặ", "😀"]);
    expect(info.unitsPerSegment).toBe(70);
  });
  it("counts user-perceived characters", () => {
    expect(analyzeSegments("a😀b").characters).toBe(3);
    expect(analyzeSegments("a😀b").units).toBe(4);
  });
  it("uses 153 units per segment when multi-part", () => {
    expect(analyzeSegments(digits(200)).unitsPerSegment).toBe(153);
  });
});

describe("GSM-7 table", () => {
  it("has the 127 basic characters (128 codes minus the escape) and 10 extension characters", () => {
    expect([...GSM7_BASIC]).toHaveLength(127);
    expect(new Set(GSM7_BASIC).size).toBe(127);
    expect([...GSM7_EXTENSION]).toHaveLength(10);
  });
  it.each([
    ["@", 1],
    ["£", 1],
    ["¤", 1],
    ["§", 1],
    ["¿", 1],
    ["à", 1],
    ["€", 2],
    ["\\", 2],
    ["~", 2],
    ["ç", undefined],
    ["á", undefined],
    ["\t", undefined],
  ] as const)("%j costs %s septet(s)", (char, septets) => {
    expect(gsm7Septets(char)).toBe(septets);
  });
});

describe("characters without the grapheme segmenter", () => {
  // GSM-7 text is split into characters without ICU's segmenter; it must count what the segmenter counts.
  const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });
  it.each([
    "a\r\nb",
    "\r\r\n\n",
    `${GSM7_BASIC}${GSM7_EXTENSION}`,
    "Hi {{first_name}}, polls close at 7pm\r\nReply STOP to opt out",
    "\n\r",
  ])("%j", (text) => {
    const info = analyzeSegments(text);
    expect(info.encoding).toBe("GSM-7");
    expect(info.characters).toBe([...segmenter.segment(text)].length);
    expect(info.segmentTexts.join("")).toBe(text);
  });

  it.each([
    `Đặng ${"x".repeat(80)}`,
    `Привет, ${"мир ".repeat(20)}\r\n—ok…`,
    `ç ${"é".repeat(75)}`,
    `e\u0301 ${"a".repeat(80)}`,
    `👍🏽 ${"b".repeat(80)}`,
    `🇺🇸 and 👨‍👩‍👧 ${"c".repeat(70)}`,
  ])("UCS-2 %j splits like the segmenter", (text) => {
    const info = analyzeSegments(text);
    expect(info.encoding).toBe("UCS-2");
    expect(info.characters).toBe([...segmenter.segment(text)].length);
    expect(info.segmentTexts.join("")).toBe(text);
  });

  it("keeps CR LF together across a segment boundary", () => {
    const text = `${"a".repeat(152)}\r\n${"b".repeat(10)}`;
    const info = analyzeSegments(text);
    expect(info.segmentTexts.map((s) => s.length)).toEqual([152, 12]);
  });
});
