/** Validate's checks of `replies:` rules: codes and the line and column they point at. */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import type { RepliesSpec } from "../../src/campaign/model.js";
import { matchRule } from "../../src/campaign/reply-match.js";
import { campaignFile, where } from "../campaign/helpers.js";

function findings(replies: string, defaults = "") {
  const text = `version: 1
${defaults}projects:
  gotv:
    id: p1
${replies}`;
  return assembleCampaign([campaignFile("c.yaml", text)]).diagnostics;
}

/** The reply rules' findings and the message rules' findings on answers, as `code@line:column`. */
function check(replies: string, defaults = ""): string[] {
  return findings(replies, defaults)
    .filter((d) => d.code.startsWith("replies.") || d.code.startsWith("lint."))
    .map(where);
}

describe("reply rules in campaign files", () => {
  it("accepts keywords per language, a pattern and GSM answers", () => {
    expect(
      check(`    replies:
      rules:
        - name: where
          keywords: { en: [where do i vote, polling place], es: ["dónde voto"] }
          answer: Find your polling place at vote.example.org
        - name: who
          pattern: "\\\\bwho (is|'s) this\\\\b"
          answer: This is Jane Doe for Ward 3 Council.
`),
    ).toEqual([]);
  });

  it("refuses a keyword or a pattern that could match a revocation word, at its line", () => {
    expect(
      check(`    replies:
      rules:
        - name: stop-rule
          keywords: [Stop texting, vote]
          answer: ok
        - name: es
          keywords: { es: ["NO MÁS"] }
          answer: vale
        - name: any
          pattern: ".*"
          answer: hi
`),
    ).toEqual([
      "replies.rule-matches-opt-out@8:22",
      "replies.rule-matches-opt-out@11:28",
      "replies.rule-matches-opt-out@14:20",
    ]);
  });

  it("checks the answer like a message and the rule's shape", () => {
    expect(
      check(`    replies:
      rules:
        - name: a
          keywords: ["!!"]
          pattern: "("
          answer: "Hi {{first_name}}"
        - name: a
          keywords: [vote]
          answer: "Vote “today”"
        - name: b
          keywords: [VOTE!]
          answer: again
`),
    ).toEqual([
      "replies.rule-needs-one-match@9:20",
      "replies.keyword-empty@8:22",
      "replies.pattern-invalid@9:21",
      "replies.answer-has-merge-tag@10:19",
      "replies.rule-name-repeated@11:17",
      "lint.non-gsm-character@13:25",
      "lint.non-gsm-character@13:31",
      "replies.rule-unreachable@15:21",
    ]);
  });

  it("reads rules from defaults, pointing into them", () => {
    expect(
      check(
        "",
        `defaults:
  replies:
    rules:
      - name: q
        keywords: [quit smoking]
        answer: ok
`,
      ),
    ).toEqual(["replies.rule-matches-opt-out@6:20"]);
  });

  it("runs nested repetitions in linear time instead of refusing them", () => {
    // `(a+)+$` backtracks for minutes in a JavaScript RegExp; on RE2 it is an ordinary pattern
    // (here refused only because it matches "basta" and other revocation words ending in "a").
    expect(
      check(`    replies:
      rules:
        - name: nested
          pattern: "^(a+)+$"
          answer: hi
`),
    ).toEqual([]);
    const spec: RepliesSpec = {
      rules: [{ name: "nested", pattern: "^(a+)+$", answer: "hi", maxPerConversation: 1 }],
      maxPerConversationPerDay: 1,
    };
    expect(matchRule(spec, `${"a".repeat(40)}!`)).toBeNull();
    expect(matchRule(spec, "a".repeat(1600))?.rule.name).toBe("nested");
  });

  it("refuses what RE2 cannot run at the construct, and a pattern that is not one at its fault", () => {
    expect(
      check(`    replies:
      rules:
        - name: ahead
          pattern: "^(?=(?:x|[xy])+z)"
          answer: hi
        - name: behind
          pattern: "(?<=where )vote"
          answer: hi
        - name: backref
          pattern: "^(\\\\w+) \\\\1$"
          answer: hi
        - name: escape
          pattern: "caf\\\\u00e9"
          answer: hi
        - name: broken
          pattern: "who (is"
          answer: hi
`),
    ).toEqual([
      "replies.pattern-unsupported@8:22",
      "replies.pattern-unsupported@11:21",
      "replies.pattern-unsupported@14:29",
      "replies.pattern-unsupported@17:24",
      "replies.pattern-invalid@20:21",
    ]);
    const messages = findings(`    replies:
      rules:
        - name: ahead
          pattern: "^(?=x)"
          answer: hi
        - name: backref
          pattern: "(a)\\\\1"
          answer: hi
`).map((d) => d.message);
    expect(messages[0]).toMatch(/a look-ahead that the linear-time engine \(RE2\) cannot run/);
    expect(messages[1]).toMatch(/a back-reference that the linear-time engine \(RE2\) cannot run/);
  });

  it("refuses a pattern too large to judge an inbound quickly, alone or with the project's others", () => {
    expect(
      check(`    replies:
      rules:
        - name: huge
          pattern: "(\\\\w+\\\\s*){0,100}x"
          answer: hi
        - name: half
          pattern: "[a-z]{150}x"
          answer: hi
        - name: other-half
          pattern: "[a-z]{160}y"
          answer: hi
`),
    ).toEqual(["replies.pattern-too-large@8:21", "replies.pattern-too-large@14:21"]);
  });

  it("checks an answer with the message rules, with their codes and severities, at its characters", () => {
    const found = findings(`    replies:
      rules:
        - name: where
          keywords: [where do i vote]
          answer: "Vote\u202E at bit.ly/ward3\u200B today"
`).filter((d) => d.code.startsWith("lint.") || d.code.startsWith("replies."));
    expect(found.map((d) => [d.severity, where(d)])).toEqual([
      ["error", "lint.bidi-control@9:24"],
      ["warning", "lint.invisible-character@9:41"],
      ["warning", "lint.url-shortener@9:29"],
    ]);
    expect(found[0]?.message).toContain("gotv (reply rule `where`'s answer)");
    // The same text as a project's message: the same codes and severities, from the same rules.
    const asMessage = assembleCampaign([
      campaignFile(
        "m.yaml",
        'version: 1\nprojects:\n  gotv:\n    id: p1\n    opt_out_footer: true\n    message: "Vote\u202E at bit.ly/ward3\u200B today"\n',
      ),
    ]);
    expect(asMessage.diagnostics).toEqual([]);
    const lint = lintCampaign(asMessage.campaign, { now: null });
    const kinds = (ds: readonly { severity: string; code: string }[]) =>
      ds.map((d) => `${d.severity} ${d.code}`).sort();
    expect(kinds(lint)).toEqual(kinds(found));
  });

  it("refuses a pattern that matches a revocation word in a short sentence or with more punctuation", () => {
    const rules = ["unsubscribe me", "^stop!!$", "please stop", "stop texting", "^Stop now$"]
      .map((p, i) => `        - name: r${i}\n          pattern: ${JSON.stringify(p)}\n          answer: hi\n`)
      .join("");
    expect(check(`    replies:\n      rules:\n${rules}`)).toEqual([
      "replies.rule-matches-opt-out@8:20",
      "replies.rule-matches-opt-out@11:20",
      "replies.rule-matches-opt-out@14:20",
      "replies.rule-matches-opt-out@17:20",
      "replies.rule-matches-opt-out@20:20",
    ]);
  });
});
