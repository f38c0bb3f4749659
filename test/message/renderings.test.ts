import { describe, expect, it } from "vitest";
import { describeContact, possibleRenderings } from "../../src/message/renderings.js";

describe("possibleRenderings: every text a contact can receive", () => {
  it.each([
    ["no tags", "Vote Tuesday", {}, [["Vote Tuesday", []]]],
    [
      "one tag with a fallback",
      "Hi {{first_name|friend}}!",
      {},
      [
        ["Hi friend!", []],
        ["Hi x!", ["first_name"]],
      ],
    ],
    [
      "two tags, one repeated, an organization default",
      "{{a}} {{b|B}} {{a}}",
      { a: "A" },
      [
        ["A B A", []],
        ["x B x", ["a"]],
        ["A x A", ["b"]],
        ["x x x", ["a", "b"]],
      ],
    ],
  ])("%s", (_name, message, defaults, expected) => {
    expect(possibleRenderings(message, defaults).map((r) => [r.text, r.valued])).toEqual(expected);
  });

  it.each([
    [[], "a contact with no values"],
    [["optout"], "a contact with a value for optout"],
    [["a", "b", "c"], "a contact with a value for a, b and c"],
  ])("describes %j as %s", (valued, text) => {
    expect(describeContact({ text: "", valued })).toBe(text);
  });
});
