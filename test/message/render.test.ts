import { describe, expect, it } from "vitest";
import { render, resolveTag } from "../../src/message/render.js";

describe("resolveTag: the fallback chain", () => {
  const cases: {
    name: string;
    values: Record<string, string>;
    fallback: string | undefined;
    defaults: Record<string, string>;
    text: string;
    source: string;
  }[] = [
    {
      name: "contact value wins",
      values: { first_name: "Ana" },
      fallback: "friend",
      defaults: { first_name: "neighbor" },
      text: "Ana",
      source: "contact",
    },
    {
      name: "empty contact value falls to inline fallback",
      values: { first_name: "" },
      fallback: "friend",
      defaults: { first_name: "neighbor" },
      text: "friend",
      source: "fallback",
    },
    {
      name: "missing value falls to inline fallback",
      values: {},
      fallback: "friend",
      defaults: { first_name: "neighbor" },
      text: "friend",
      source: "fallback",
    },
    {
      name: "no inline fallback: organization default",
      values: {},
      fallback: undefined,
      defaults: { first_name: "neighbor" },
      text: "neighbor",
      source: "default",
    },
    {
      name: "empty inline fallback passes on to organization default",
      values: {},
      fallback: "",
      defaults: { first_name: "neighbor" },
      text: "neighbor",
      source: "default",
    },
    {
      name: "nothing: platform default (empty)",
      values: {},
      fallback: undefined,
      defaults: {},
      text: "",
      source: "platform",
    },
    {
      name: "empty organization default: platform default",
      values: {},
      fallback: undefined,
      defaults: { first_name: "" },
      text: "",
      source: "platform",
    },
    {
      name: "whitespace is a value",
      values: { first_name: " " },
      fallback: "friend",
      defaults: {},
      text: " ",
      source: "contact",
    },
  ];
  it.each(cases)("$name", ({ values, fallback, defaults, text, source }) => {
    expect(resolveTag("first_name", fallback, values, defaults)).toEqual({ text, source });
  });
  it("does not read prototype properties as values", () => {
    expect(resolveTag("toString", undefined, {}, {})).toEqual({ text: "", source: "platform" });
  });
});

describe("render", () => {
  const message = "Hi {{first_name|friend}}, vote at {{polling_place}} {{ city }}!";
  it("renders each tag by the chain and keeps literal text", () => {
    const result = render(message, { polling_place: "Lincoln High" }, { city: "Riverside" });
    expect(result.text).toBe("Hi friend, vote at Lincoln High Riverside!");
    expect(result.parts.map((p) => p.source)).toEqual([
      undefined,
      "fallback",
      undefined,
      "contact",
      undefined,
      "default",
      undefined,
    ]);
  });
  it("records where each part landed in the output", () => {
    const result = render(message, { first_name: "Ana" }, {});
    expect(result.text).toBe("Hi Ana, vote at  !");
    for (const part of result.parts) expect(result.text.slice(part.outStart, part.outEnd)).toBe(part.text);
  });
  it("renders malformed tags as written", () => {
    expect(render("Hi {{}} {{first_name", { first_name: "Ana" }, {}).text).toBe("Hi {{}} {{first_name");
  });
  it("does not re-expand tags inside values", () => {
    expect(render("{{a}}", { a: "{{b}}" }, {}).text).toBe("{{b}}");
  });
});
