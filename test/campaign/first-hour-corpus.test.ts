/**
 * First-hour errors of issue 25 item 5 (a to e: an unquoted id, a rate written as a percent, an
 * unclosed quote, a list item without its dash, a message written as a list), and a corpus of 30
 * further first-hour mistakes: each is one error at the place to edit, with a hint that says what
 * to write. Table-driven: file text -> `code@line:column` and a hint substring.
 */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { compareDiagnostics } from "../../src/diagnostics/diagnostic.js";
import { campaignFile, where } from "./helpers.js";

const errorsOf = (text: string) =>
  [...assembleCampaign([campaignFile("c.yaml", text)]).diagnostics]
    .sort(compareDiagnostics)
    .filter((d) => d.severity === "error");

import { FIRST_HOUR_CORPUS, FIRST_HOUR_ERRORS, FIRST_HOUR_VARIANTS, GOTV, H } from "./first-hour-cases.js";

describe("issue 25 item 5: the first-hour errors that left the user guessing", () => {
  it.each(FIRST_HOUR_ERRORS)("%s", (_what, text, expected, hint, message) => {
    const ds = errorsOf(String(text));
    expect(ds.map(where)).toEqual([expected]);
    expect(ds[0]?.hint).toContain(String(hint));
    if (message !== undefined) expect(ds[0]?.message).toContain(message);
  });

  it("the hinted spellings pass", () => {
    expect(errorsOf(H.replace("id: p1", 'id: "12345"'))).toEqual([]);
    expect(errorsOf(`${H}    guard:\n      max_failure_rate: 0.1\n`)).toEqual([]);
    expect(
      errorsOf(`${H}    message: |\n      Hi there, polls: open 7am-7pm\n      Reply STOP to opt out\n`),
    ).toEqual([]);
    expect(errorsOf(GOTV)).toEqual([]);
  });

  it("an unclosed quote keeps the errors above it", () => {
    const text = `${H}    stat: draft\n    name: "GOTV\n    state: draft\n`;
    expect(errorsOf(text).map(where)).toEqual(["campaign.unclosed-quote@6:11"]);
    // The file is not usable past the quote, so the schema is not checked: one error to fix first.
    const dashed = `${H}    contact_lists:\n      - Ward 3\n      Ward 4\n    name: "GOTV\n`;
    expect(errorsOf(dashed).map(where)).toEqual([
      "campaign.list-item-dash@7:7",
      "campaign.unclosed-quote@8:11",
    ]);
  });

  it("a list in its key's column is followed by sibling keys, not by items without dashes", () => {
    expect(errorsOf("version: 1\nfields:\n- polling_place\nprojects:\n  a:\n    id: p1\n")).toEqual([]);
  });
});

describe("a corpus of 30 further first-hour mistakes", () => {
  it("holds 30 cases", () => expect(FIRST_HOUR_CORPUS.length).toBe(30));

  it.each(FIRST_HOUR_CORPUS)("%s", (_what, text, expected, hint, message) => {
    const ds = errorsOf(String(text));
    expect(ds.map(where)).toEqual([expected]);
    expect(ds[0]?.hint).toContain(String(hint));
    if (message !== undefined) expect(ds[0]?.message).toContain(message);
  });
});

describe("variants of the first-hour errors, as review typed them", () => {
  it.each(FIRST_HOUR_VARIANTS)("%s", (_what, text, expected, hint) => {
    const ds = errorsOf(String(text));
    expect(ds.map(where)).toEqual([expected]);
    expect(ds[0]?.hint).toContain(String(hint));
  });

  it.each([
    [
      "a quote inside a block scalar",
      `${H}    message: |\n      Say "vote" and it's done. Reply STOP to opt out\n`,
    ],
    ["a quote and an apostrophe in a plain text", `${H}    name: Maria's "big" day\n`],
    [
      "a tab inside a block scalar's text",
      `${H}    message: |\n      Vote at\tthe library. Reply STOP to opt out\n`,
    ],
  ])("no error for %s", (_what, text) => {
    expect(errorsOf(text)).toEqual([]);
  });
});
