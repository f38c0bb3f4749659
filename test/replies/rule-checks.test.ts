/** Validate's checks of `replies:` rules: codes and the line and column they point at. */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import type { RepliesSpec } from "../../src/campaign/model.js";
import { matchRule } from "../../src/campaign/reply-match.js";
import { campaignFile, where } from "../campaign/helpers.js";

function check(replies: string, defaults = ""): string[] {
  const text = `version: 1
${defaults}projects:
  gotv:
    id: p1
${replies}`;
  const result = assembleCampaign([campaignFile("c.yaml", text)]);
  return result.diagnostics.filter((d) => d.code.startsWith("replies.")).map(where);
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
      "replies.pattern-invalid@9:20",
      "replies.answer-has-merge-tag@10:19",
      "replies.rule-name-repeated@11:17",
      "replies.answer-not-gsm@13:19",
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

  it("refuses a pattern with catastrophic backtracking, and the worker never runs it", () => {
    expect(
      check(`    replies:
      rules:
        - name: redos
          pattern: "(a+)+$"
          answer: hi
`),
    ).toEqual(["replies.pattern-unsafe@8:20"]);
    const spec: RepliesSpec = {
      rules: [{ name: "redos", pattern: "(a+)+$", answer: "hi", maxPerConversation: 1 }],
      maxPerConversationPerDay: 1,
    };
    // Would backtrack for minutes if compiled: the matcher refuses it instead.
    expect(matchRule(spec, `${"a".repeat(40)}!`)).toBeNull();
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
