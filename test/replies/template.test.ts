/**
 * `replies:` in a template (docs/replies.md: "on a project, in the file's `defaults` or in a
 * template"): the schema takes it on a template and on an instance, each instance inherits the
 * template's rules (or sends its own), and `replies run` answers an inbound of an instance's project
 * with the template's rule, against the sandbox over loopback.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { decodeCampaignFile } from "../../src/campaign/decode.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { EXAMPLE_FIXTURE, GOTV_REMINDER, VOLUNTEERS } from "../sandbox/helpers.js";
import {
  ANSWERS,
  answersAfter,
  campaignDir,
  GOTV_NUMBER,
  planJson,
  runJson,
  textIn,
  VOLUNTEERS_NUMBER,
} from "./world.js";

const WHERE = {
  name: "where",
  keywords: { en: ["where do i vote", "polling place"] },
  answer: ANSWERS.where,
};
const SHIFT = { name: "shift", keywords: ["volunteer", "shift"], answer: ANSWERS.shift };

/** One template, two instances: gotv-reminder inherits the template's rules, volunteers sends its own. */
const TEMPLATED = {
  version: 1,
  templates: {
    outreach: {
      message: { en: "Vote Tuesday at your polling place. Reply STOP to opt out" },
      replies: { rules: [WHERE], max_per_conversation_per_day: 2 },
      instances: {
        "gotv-reminder": {
          organization: "Riverside Democrats",
          id: GOTV_REMINDER,
          language: "en",
          phone_numbers: [GOTV_NUMBER],
        },
        volunteers: {
          organization: "Riverside Democrats",
          id: VOLUNTEERS,
          language: "en",
          phone_numbers: [VOLUNTEERS_NUMBER],
          replies: { rules: [SHIFT] },
        },
      },
    },
  },
};

describe("replies in a template", () => {
  it("validates, and each instance carries the template's rules or its own", () => {
    const text = stringify(TEMPLATED);
    const decoded = decodeCampaignFile("t.yaml", new TextEncoder().encode(text));
    if (decoded.file === undefined) throw new Error("bug: not decoded");
    const { campaign, diagnostics } = assembleCampaign([decoded.file]);
    expect(diagnostics.map((d) => d.code)).toEqual([]);
    const rules = Object.fromEntries(
      campaign.projects.map((p) => [p.address, p.replies?.rules.map((r) => r.name)]),
    );
    expect(rules).toEqual({ "gotv-reminder": ["where"], volunteers: ["shift"] });
    const gotv = campaign.projects.find((p) => p.address === "gotv-reminder");
    expect(gotv?.replies?.maxPerConversationPerDay).toBe(2);
    // Where the inherited rule is written: in the template's `replies:`, the only `name: where`.
    const line = text.split("\n").findIndex((l) => l.includes("name: where")) + 1;
    expect(gotv?.locate(["replies", "rules", 0, "name"]).start.line).toBe(line);
  });

  it("a finding on a template's rule is at the rule in the template and names the instance", () => {
    const broken = structuredClone(TEMPLATED);
    broken.templates.outreach.replies.rules[0] = { ...WHERE, keywords: { en: ["where do i vote", "stop"] } };
    const text = stringify(broken);
    const decoded = decodeCampaignFile("t.yaml", new TextEncoder().encode(text));
    if (decoded.file === undefined) throw new Error("bug: not decoded");
    const { diagnostics } = assembleCampaign([decoded.file]);
    expect(diagnostics.map((d) => d.code)).toEqual(["replies.rule-matches-opt-out"]);
    const [finding] = diagnostics;
    const stopLine = text.split("\n").findIndex((l) => l.includes("- stop")) + 1;
    expect(finding?.range?.start.line).toBe(stopLine);
    // The instance it affects is named beside it (its wording is relateToOrigin's).
    expect(finding?.related?.map((r) => r.message)).toEqual([expect.stringContaining("`gotv-reminder`")]);
  });

  describe("against the sandbox", () => {
    let sb: SandboxHandle;
    beforeEach(async () => {
      sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: 7 });
    });
    afterEach(async () => {
      await sb.close();
    });

    it("replies plan and replies run answer an instance's inbound with the template's rule", async () => {
      const cwd = campaignDir(TEMPLATED);
      const where = await textIn(sb, "gotv", 1, "Where do I vote?");
      const shift = await textIn(sb, "volunteers", 2, "I can do a shift");
      const other = await textIn(sb, "gotv", 3, "I can do a shift");
      await sb.clock.advance(5_000);
      const { code, plan } = await planJson(sb, cwd);
      expect(code).toBe(0);
      const verdicts = Object.fromEntries(
        plan.inbounds.map((i: { message_id: string; verdict: string; rule: string | null }) => [
          i.message_id,
          [i.verdict, i.rule],
        ]),
      );
      expect(verdicts[where.messageId]).toEqual(["answer", "where"]);
      expect(verdicts[shift.messageId]).toEqual(["answer", "shift"]);
      expect(verdicts[other.messageId]).toEqual(["unmatched", null]);

      const run = await runJson(sb, cwd, { once: true, webhooks: false });
      expect(run.code, run.stderr).toBe(0);
      expect(answersAfter(sb, where.conversationId, where.messageId)).toEqual([ANSWERS.where]);
      expect(answersAfter(sb, shift.conversationId, shift.messageId)).toEqual([ANSWERS.shift]);
      expect(answersAfter(sb, other.conversationId, other.messageId)).toEqual([]);
    });
  });
});
