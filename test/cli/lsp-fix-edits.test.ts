/**
 * The fixes carried by validate's diagnostics, made into edits of the source by the language
 * server (cli/lsp/fix-edits.ts): each edit, applied, gives a file whose check no longer has the
 * diagnostic, whatever the quoting of the scalar the fix lands in.
 */
import { describe, expect, test } from "vitest";
import { TextDocument } from "vscode-languageserver-textdocument";
import { fixEdits, scalarsOf } from "../../cli/lsp/fix-edits.js";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import { campaignFile } from "../campaign/helpers.js";

const H = "version: 1\nprojects:\n  a:\n    id: p1\n";

function findings(text: string) {
  const assembled = assembleCampaign([campaignFile("c.yaml", text)]);
  return [...assembled.diagnostics, ...lintCampaign(assembled.campaign, { now: null })];
}

/** The text after the first fix of the first diagnostic with `code`, and the code's count after. */
function fixFirst(text: string, code: string): { fixed: string; left: number } {
  const d = findings(text).find((x) => x.code === code);
  if (d === undefined) throw new Error(`no ${code}`);
  const [fix] = fixEdits(text, d, scalarsOf(text));
  if (fix === undefined) throw new Error(`no fix for ${code}`);
  const fixed = TextDocument.applyEdits(TextDocument.create("file:///c.yaml", "yaml", 1, text), [
    ...fix.edits,
  ]);
  return { fixed, left: findings(fixed).filter((x) => x.code === code).length };
}

describe("fix edits", () => {
  test("a curly apostrophe in a single-quoted message becomes a doubled quote, everywhere", () => {
    const text = `${H}    message: 'It\u2019s the day, it\u2019s time. Reply STOP to opt out'\n`;
    const { fixed, left } = fixFirst(text, "lint.non-gsm-character");
    expect(fixed).toContain("message: 'It''s the day, it''s time. Reply STOP to opt out'");
    expect(left).toBe(0);
  });

  test("a curly double quote in a double-quoted message is escaped", () => {
    const text = `${H}    message: "Say \u201Cvote\u201D. Reply STOP to opt out"\n`;
    const once = fixFirst(text, "lint.non-gsm-character");
    expect(once.fixed).toContain('message: "Say \\"vote\u201D. Reply STOP to opt out"');
    const twice = fixFirst(once.fixed, "lint.non-gsm-character");
    expect(twice.fixed).toContain('message: "Say \\"vote\\". Reply STOP to opt out"');
    expect(twice.left).toBe(0);
  });

  test.each([
    [
      "plain",
      `${H}    message: Vote today!\n    state: draft\n`,
      "message: Vote today! Reply STOP to opt out\n",
    ],
    ["double-quoted", `${H}    message: "Vote today!"\n`, 'message: "Vote today! Reply STOP to opt out"'],
    ["single-quoted", `${H}    message: 'Vote today!'\n`, "message: 'Vote today! Reply STOP to opt out'"],
    [
      "a block literal",
      `${H}    message: |\n      Vote today!\n      Polls open 7am.\n    state: draft\n`,
      "      Polls open 7am. Reply STOP to opt out\n    state: draft\n",
    ],
  ])("the opt-out wording is added at the end of a %s message", (_what, text, expected) => {
    const { fixed, left } = fixFirst(text, "lint.opt-out-missing");
    expect(fixed).toContain(expected);
    expect(left).toBe(0);
  });

  test("an unquoted phone is written quoted, in E.164 form", () => {
    const text = `${H}    test:\n      contacts:\n        - phone: 15035550150\n`;
    const d = findings(text).find((x) => x.code === "campaign.yaml-unquoted-phone");
    const titles = d === undefined ? [] : fixEdits(text, d, scalarsOf(text)).map((f) => f.title);
    expect(titles).toEqual(['Write "+15035550150"', 'Quote it: "15035550150"']);
    const { fixed, left } = fixFirst(text, "campaign.yaml-unquoted-phone");
    expect(fixed).toContain('- phone: "+15035550150"\n');
    expect(left).toBe(0);
  });

  test("a misspelt key and state get their did-you-mean", () => {
    const key = fixFirst(`${H}    stat: draft\n`, "campaign.unknown-key");
    expect(key.fixed).toBe(`${H}    state: draft\n`);
    expect(key.left).toBe(0);
    const state = fixFirst(`${H}    state: "Draft"\n`, "campaign.schema-enum");
    expect(state.fixed).toBe(`${H}    state: "draft"\n`);
  });
});
