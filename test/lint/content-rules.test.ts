import { describe, expect, it } from "vitest";
import { optOutRule } from "../../src/campaign/lint/opt-out.js";
import { segmentGrowthRule } from "../../src/campaign/lint/segments.js";
import { findShortenedLinks, urlShortenersRule } from "../../src/campaign/lint/url-shorteners.js";
import { lineOf, messageRange, projectSpec } from "./project-spec.js";

const now = new Date("2026-10-01T12:00:00Z");

describe("opt-out rule", () => {
  const cases: { message: string; footer: boolean | undefined; flagged: boolean }[] = [
    { message: "Vote Tuesday! Reply STOP to opt out", footer: undefined, flagged: false },
    { message: "Vote Tuesday! Text stop to quit", footer: false, flagged: false },
    { message: "Vote Tuesday!\nSTOP=END", footer: undefined, flagged: false },
    { message: "Vote Tuesday!", footer: undefined, flagged: true },
    { message: "Vote Tuesday!", footer: false, flagged: true },
    { message: "Unstoppable turnout Tuesday!", footer: false, flagged: true },
    { message: "Vote Tuesday!", footer: true, flagged: false },
    // Judged on what each contact receives: a fallback is lost for a contact with a value.
    { message: "Vote Tuesday! {{optout|Reply STOP to opt out}}", footer: undefined, flagged: true },
    { message: "Vote Tuesday! Reply {{word|STOP}} to opt out", footer: undefined, flagged: true },
    {
      message: "Hi {{first_name|friend}}, vote Tuesday! Reply STOP to opt out",
      footer: undefined,
      flagged: false,
    },
    {
      message: "Hi {{first_name}}, vote! Reply STOP to opt out, {{first_name}}",
      footer: undefined,
      flagged: false,
    },
    { message: "Vote Tuesday! {{optout|Reply STOP to opt out}}", footer: true, flagged: false },
  ];
  it.each(cases)("$message (footer $footer): flagged $flagged", ({ message, footer, flagged }) => {
    const project = projectSpec({ message, ...(footer !== undefined ? { optOutFooter: footer } : {}) });
    const diagnostics = optOutRule(project, { now });
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual(
      flagged ? [["lint.opt-out-missing", "error", lineOf(["message"])]] : [],
    );
  });
});

describe("URL shortener rule", () => {
  const cases: { text: string; links: { host: string; start: number; end: number }[] }[] = [
    { text: "See bit.ly/abc now", links: [{ host: "bit.ly", start: 4, end: 14 }] },
    { text: "See https://bit.ly/abc.", links: [{ host: "bit.ly", start: 4, end: 22 }] },
    { text: "See HTTPS://TinyURL.com/x", links: [{ host: "tinyurl.com", start: 4, end: 25 }] },
    {
      text: "www.t.co/x and goo.gl",
      links: [
        { host: "t.co", start: 0, end: 10 },
        { host: "goo.gl", start: 15, end: 21 },
      ],
    },
    {
      text: "cutt.ly, rebrand.ly/a, shorturl.at/b",
      links: [
        { host: "cutt.ly", start: 0, end: 7 },
        { host: "rebrand.ly", start: 9, end: 21 },
        { host: "shorturl.at", start: 23, end: 36 },
      ],
    },
    { text: "See https://riverside.vote/t.co", links: [] },
    { text: "Mail abit.ly or bit.lyx or bit.ly.example.com", links: [] },
    { text: "Go to go.riverside.vote/x", links: [] },
  ];
  it.each(cases)("$text", ({ text, links }) => {
    expect(findShortenedLinks(text)).toEqual(links);
  });
  it("warns with the link's range in the message", () => {
    const diagnostics = urlShortenersRule(projectSpec({ message: "Info: bit.ly/x Reply STOP to opt out" }), {
      now,
    });
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual([
      ["lint.url-shortener", "warning", messageRange(6, 14)],
    ]);
  });
});

describe("segment growth rule", () => {
  const pad = (n: number) => "x".repeat(n);
  it("warns when one non-GSM character in a value adds segments", () => {
    // "Hi " + "Ana" + ", " + 100 x = 108 septets: 1 GSM-7 segment; as UCS-2, 108 units = 2 segments.
    const message = `Hi {{first_name}}, ${pad(100)}`;
    const project = projectSpec({
      message,
      test: { contacts: [{ phone: "+15035550100", mergeValues: { first_name: "Ana" } }] },
    });
    const diagnostics = segmentGrowthRule(project, { now });
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual([
      ["lint.segment-growth", "info", messageRange(3, 17)],
    ]);
    expect(diagnostics[0]?.message).toContain(
      "1 segment in GSM-7 with the sample values, but 2 segments in UCS-2",
    );
  });
  it("counts the opt-out footer", () => {
    // 3 + 6 + 54 = 63 units alone (1 UCS-2 segment); with "\nSTOP=END" 72 units: 2.
    const message = `Hi {{first_name|friend}}${pad(54)}`;
    expect(segmentGrowthRule(projectSpec({ message }), { now })).toEqual([]);
    expect(
      segmentGrowthRule(projectSpec({ message, optOutFooter: true }), { now }).map((d) => d.code),
    ).toEqual(["lint.segment-growth"]);
  });
  it("probes a tag that renders empty by giving it one non-GSM character", () => {
    // "" + 69 x = 69 septets; with "Đ" 70 units: still 1 segment. With 70 x: 71 units, 2 segments.
    expect(segmentGrowthRule(projectSpec({ message: `{{last_name}}${pad(69)}` }), { now })).toEqual([]);
    const diagnostics = segmentGrowthRule(projectSpec({ message: `{{last_name}}${pad(70)}` }), { now });
    expect(diagnostics.map((d) => [d.code, d.range])).toEqual([["lint.segment-growth", messageRange(0, 13)]]);
  });
  it("is quiet when the segment count would not change", () => {
    expect(segmentGrowthRule(projectSpec({ message: "Hi {{first_name|friend}}, vote!" }), { now })).toEqual(
      [],
    );
  });
  it("is quiet for a message already in UCS-2, one without tags, and MMS", () => {
    expect(
      segmentGrowthRule(projectSpec({ message: `Hi {{first_name|friend}} 😀${pad(100)}` }), { now }),
    ).toEqual([]);
    expect(segmentGrowthRule(projectSpec({ message: pad(120) }), { now })).toEqual([]);
    expect(
      segmentGrowthRule(
        projectSpec({ message: `Hi {{first_name|friend}}${pad(100)}`, media: ["rally-flyer.png"] }),
        { now },
      ),
    ).toEqual([]);
  });
});

describe("opt-out rule names the contact who misses it", () => {
  it("a fallback-only opt-out: the contact with a value for the tag", () => {
    const [d] = optOutRule(projectSpec({ message: "Vote! {{optout|Reply STOP to opt out}}" }), { now });
    expect(d?.message).toContain("that a contact with a value for optout receives");
    expect(d?.hint).toContain("not in a merge tag's fallback");
  });
});
