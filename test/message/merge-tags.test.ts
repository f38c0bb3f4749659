import { describe, expect, it } from "vitest";
import { type MessageSegment, parseMergeTags } from "../../src/message/merge-tags.js";

describe("parseMergeTags: well-formed tags", () => {
  const cases: {
    text: string;
    tags: {
      name: string;
      fallback: string | undefined;
      start: number;
      end: number;
      nameStart: number;
      nameEnd: number;
    }[];
  }[] = [
    {
      text: "Hi {{first_name}}!",
      tags: [{ name: "first_name", fallback: undefined, start: 3, end: 17, nameStart: 5, nameEnd: 15 }],
    },
    {
      text: "{{ first_name | friend }}",
      tags: [{ name: "first_name", fallback: "friend", start: 0, end: 25, nameStart: 3, nameEnd: 13 }],
    },
    {
      text: "{{first_name|}}",
      tags: [{ name: "first_name", fallback: "", start: 0, end: 15, nameStart: 2, nameEnd: 12 }],
    },
    { text: "{{a|x|y}}", tags: [{ name: "a", fallback: "x|y", start: 0, end: 9, nameStart: 2, nameEnd: 3 }] },
    {
      text: "{{a|dear {friend}}",
      tags: [{ name: "a", fallback: "dear {friend", start: 0, end: 18, nameStart: 2, nameEnd: 3 }],
    },
    {
      text: "😀 {{_x1}}",
      tags: [{ name: "_x1", fallback: undefined, start: 3, end: 10, nameStart: 5, nameEnd: 8 }],
    },
    {
      text: "{{a}}{{b|c}}",
      tags: [
        { name: "a", fallback: undefined, start: 0, end: 5, nameStart: 2, nameEnd: 3 },
        { name: "b", fallback: "c", start: 5, end: 12, nameStart: 7, nameEnd: 8 },
      ],
    },
  ];
  it.each(cases)("$text", ({ text, tags }) => {
    const parsed = parseMergeTags(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.segments.filter((s) => s.kind === "tag")).toEqual(tags.map((t) => ({ kind: "tag", ...t })));
  });

  it("cuts text into literal and tag segments that cover the message exactly once", () => {
    const text = "Hi {{first_name|friend}}, vote at {{polling_place}}.";
    const segments = parseMergeTags(text).segments;
    expect(segments.map((s: MessageSegment) => [s.kind, s.start, s.end])).toEqual([
      ["literal", 0, 3],
      ["tag", 3, 24],
      ["literal", 24, 34],
      ["tag", 34, 51],
      ["literal", 51, 52],
    ]);
    expect(segments.map((s) => text.slice(s.start, s.end)).join("")).toBe(text);
  });

  it("treats single braces as literal text", () => {
    const parsed = parseMergeTags("a { b } c {x}");
    expect(parsed.problems).toEqual([]);
    expect(parsed.segments).toEqual([{ kind: "literal", text: "a { b } c {x}", start: 0, end: 13 }]);
  });
});

describe("parseMergeTags: problems and their index ranges", () => {
  const cases: { text: string; problems: { kind: string; start: number; end: number; name?: string }[] }[] = [
    { text: "Hi {{first_name", problems: [{ kind: "unclosed-tag", start: 3, end: 5 }] },
    { text: "Hi {{a {{b}}", problems: [{ kind: "unclosed-tag", start: 3, end: 5 }] },
    { text: "Hi a}} there", problems: [{ kind: "stray-close", start: 4, end: 6 }] },
    { text: "{{}}", problems: [{ kind: "empty-tag-name", start: 0, end: 4 }] },
    { text: "x {{  |friend}}", problems: [{ kind: "empty-tag-name", start: 2, end: 15 }] },
    {
      text: "{{ first name }}",
      problems: [{ kind: "invalid-tag-name", start: 3, end: 13, name: "first name" }],
    },
    { text: "{{1st}}", problems: [{ kind: "invalid-tag-name", start: 2, end: 5, name: "1st" }] },
    {
      text: "{{first-name|x}}",
      problems: [{ kind: "invalid-tag-name", start: 2, end: 12, name: "first-name" }],
    },
    {
      text: "}} {{a}} {{",
      problems: [
        { kind: "stray-close", start: 0, end: 2 },
        { kind: "unclosed-tag", start: 9, end: 11 },
      ],
    },
  ];
  it.each(cases)("$text", ({ text, problems }) => {
    expect(parseMergeTags(text).problems).toEqual(problems);
  });

  it("keeps malformed text as literal so rendering still shows it", () => {
    const text = "Hi {{}} and {{b}} and {{c";
    const parsed = parseMergeTags(text);
    expect(parsed.segments.map((s) => [s.kind, text.slice(s.start, s.end)])).toEqual([
      ["literal", "Hi {{}} and "],
      ["tag", "{{b}}"],
      ["literal", " and {{c"],
    ]);
  });
});
