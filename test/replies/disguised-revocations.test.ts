/**
 * Issue 34, acceptance 5: disguised revocations (letters set apart, look-alikes from several scripts,
 * small capitals, digits for letters, the stop sign) are never answered, though each also asks a
 * question a rule answers: 0 answered in the pure judgement, in `replies plan` and in
 * `replies run --once` against the sandbox (counted from its threads). Plain texts that only look
 * like one (a zip code, "5th and Main", "Stop by our office?" which is a revocation as before) are
 * judged as before.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { INBOUND_ID, inboundThread } from "../../bench/replies-pattern-corpus.mjs";
// @ts-expect-error: a plain ES module script without type declarations
import { render, smallCapitals } from "../../scripts/gen-small-capitals.mjs";
import type { RepliesSpec } from "../../src/campaign/model.js";
import { revocationWords } from "../../src/message/reply-words.js";
import { foldLookAlikes, revocationDisguised } from "../../src/message/revocation-disguise.js";
import { decideInbound } from "../../src/replies/decide.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { EXAMPLE_FIXTURE } from "../sandbox/helpers.js";
import { answersAfter, campaignDir, planJson, runJson, textIn } from "./world.js";

type Kind = "letters-apart" | "look-alike" | "digits" | "emoji";

/** Each with the script of its look-alikes, where it has some. */
const DISGUISED: readonly { readonly text: string; readonly kind: Kind; readonly script?: string }[] = [
  { text: "S-T-O-P where do i vote", kind: "letters-apart" },
  { text: "s t o p where do i vote", kind: "letters-apart" },
  { text: "st.op where do i vote", kind: "letters-apart" },
  { text: "S.T.O.P. where do i vote?", kind: "letters-apart" },
  { text: "S - T - O - P, where do i vote", kind: "letters-apart" },
  { text: "s_t_o_p where do i vote", kind: "letters-apart" },
  { text: "S*T*O*P where do i vote", kind: "letters-apart" },
  { text: "q u i t where do i vote", kind: "letters-apart" },
  { text: "u-n-s-u-b-s-c-r-i-b-e where do i vote", kind: "letters-apart" },
  { text: "b a s t a ¿dónde voto?", kind: "letters-apart" },
  { text: "can.cel where do i vote", kind: "letters-apart" },
  { text: "o p t o u t, where do i vote", kind: "letters-apart" },
  { text: "\u0405top where do i vote", kind: "look-alike", script: "Cyrillic" },
  { text: "\u0405\u0422\u041e\u0420 where do i vote", kind: "look-alike", script: "Cyrillic" },
  { text: "\u0455\u0442\u043e\u0440 where do i vote", kind: "look-alike", script: "Cyrillic" },
  { text: "\u0421ancel where do i vote", kind: "look-alike", script: "Cyrillic" },
  { text: "S\u03a4\u039f\u03a1 where do i vote", kind: "look-alike", script: "Greek" },
  { text: "\u0395\u039dD where do i vote", kind: "look-alike", script: "Greek" },
  { text: "\u054f\u03a4\u039f\u03a1 where do i vote", kind: "look-alike", script: "Armenian" },
  { text: "\u13da\u13a2\u13be\u13e2 where do i vote", kind: "look-alike", script: "Cherokee" },
  { text: "\ua4e2\ua4d4\ua4f3\ua4d1 where do i vote", kind: "look-alike", script: "Lisu" },
  { text: "\ua731\u1d1b\u1d0f\u1d18 where do i vote", kind: "look-alike", script: "Latin small capitals" },
  { text: "s\u1d1b\u1d0f\u1d18 where do i vote", kind: "look-alike", script: "Latin small capitals" },
  { text: "\ua7af\u1d1c\u026a\u1d1b where do i vote", kind: "look-alike", script: "Latin small capitals" },
  { text: "ST0P where do i vote", kind: "digits" },
  { text: "5TOP where do i vote", kind: "digits" },
  { text: "$T0P where do i vote", kind: "digits" },
  { text: "QU1T where do i vote", kind: "digits" },
  { text: "c4ncel where do i vote", kind: "digits" },
  { text: "4LTO ¿dónde voto?", kind: "digits" },
  { text: "0pt 0ut where do i vote", kind: "digits" },
  { text: "S-T-0-P where do i vote", kind: "digits" },
  { text: "\u{1F6D1} where do i vote", kind: "emoji" },
  { text: "where do i vote \u{1F6D1}\u{1F6D1}", kind: "emoji" },
];

/** Questions a rule answers, plain: answered as before. */
const PLAIN: readonly string[] = [
  "Where do I vote??",
  "what's my POLLING PLACE",
  "Where do I vote? I'm at 5th and Main",
  "where do i vote, room 3B",
  "where do i vote at 10am",
  "My zip is 97211, where do I vote",
  "U.S. citizen, where do i vote",
];

const RULES: RepliesSpec = {
  rules: [
    {
      name: "where",
      keywords: { en: ["where do i vote", "polling place"] },
      answer: "At the school.",
      maxPerConversation: 1,
    },
    { name: "donde", keywords: { es: ["dónde voto"] }, answer: "En la escuela.", maxPerConversation: 1 },
  ],
  maxPerConversationPerDay: 3,
};

function judge(text: string) {
  return decideInbound({
    thread: inboundThread(text),
    inboundId: INBOUND_ID,
    replies: RULES,
    revocation: revocationWords(),
    conversationOptedOut: false,
    eventOptOut: false,
  });
}

describe("disguised revocations, judged", () => {
  it("has at least 30, with look-alikes from at least three scripts, digits and the emoji", () => {
    expect(DISGUISED.length).toBeGreaterThanOrEqual(30);
    const scripts = new Set(DISGUISED.flatMap((d) => (d.script === undefined ? [] : [d.script])));
    expect(scripts.size).toBeGreaterThanOrEqual(3);
    for (const kind of ["letters-apart", "look-alike", "digits", "emoji"] as const)
      expect(DISGUISED.some((d) => d.kind === kind)).toBe(true);
  });

  it("answers none of them: each an opt-out, found the way it was written", () => {
    for (const d of DISGUISED) {
      // Each asks what a rule answers: without the revocation it would be answered.
      expect(
        judge(d.text.replace(/^.*?(where do i vote|¿dónde voto\?)/i, "$1").replace(/\u{1F6D1}/gu, "")).kind,
        d.text,
      ).toBe("answer");
      const decision = judge(d.text);
      expect(decision.kind, d.text).toBe("opt-out");
      expect(revocationDisguised(d.text, revocationWords())?.how, d.text).toBe(d.kind);
    }
  });

  it("answers plain questions as before, and still reads a plain revocation inside a sentence", () => {
    for (const text of PLAIN) expect(judge(text).kind, text).toBe("answer");
    expect(judge("Stop by our office? where do I vote")).toMatchObject({
      kind: "opt-out",
      reason: 'revocation word "stop"',
    });
    expect(judge("Stopping by later, where do I vote").kind).toBe("answer");
  });

  it("when in doubt, does not answer and lists the inbound for a person", () => {
    expect(judge("a t t e n d where do i vote")).toMatchObject({
      kind: "unmatched",
      reason: expect.stringContaining('may be the revocation word "end"'),
    });
  });

  it("folds look-alikes with Unicode's confusables data and small capitals with the Unicode names", () => {
    expect(foldLookAlikes("\u0405\u03a4\u13be\ua4d1")).toBe("stop");
    expect(foldLookAlikes("\u1d07\u0274\u1d05")).toBe("end");
    // ASCII letters and digits are left alone (confusables maps `m` to `rn`, `1` to `l`).
    expect(foldLookAlikes("Mom 101")).toBe("mom 101");
    // The small capitals table is what its script derives from the Unicode names (its `--check`,
    // in this process).
    expect(readFileSync(new URL("../../src/message/small-capitals.ts", import.meta.url), "utf8")).toBe(
      render(smallCapitals()),
    );
  });
});

describe("disguised revocations against the sandbox", () => {
  let sb: SandboxHandle;
  beforeEach(async () => {
    sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: false, seed: 35 });
  });
  afterEach(async () => {
    await sb.close();
  });

  it("0 answered in replies plan and in replies run; the plain questions once each", async () => {
    const cwd = campaignDir();
    const disguised: { messageId: string; conversationId: string; text: string }[] = [];
    for (const [n, d] of DISGUISED.entries())
      disguised.push({ ...(await textIn(sb, "gotv", 100 + n, d.text)), text: d.text });
    const plain: { messageId: string; conversationId: string }[] = [];
    for (const [n, text] of PLAIN.entries()) plain.push(await textIn(sb, "gotv", 300 + n, text));
    await sb.clock.advance(5_000);

    const { code, plan } = await planJson(sb, cwd);
    expect(code).toBe(0);
    const verdict = new Map<string, string>(
      plan.inbounds.map((i: { message_id: string; verdict: string }) => [i.message_id, i.verdict]),
    );
    for (const d of disguised) expect(verdict.get(d.messageId), d.text).toBe("opt-out");
    for (const p of plain) expect(verdict.get(p.messageId)).toBe("answer");

    const run = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(run.code, run.stderr).toBe(0);
    const answered = new Set(
      run.lines.filter((l) => l.type === "inbound" && l.outcome === "answered").map((l) => l.message_id),
    );
    for (const d of disguised) {
      expect(answered.has(d.messageId), d.text).toBe(false);
      expect(answersAfter(sb, d.conversationId, d.messageId), d.text).toEqual([]);
    }
    for (const p of plain) expect(answersAfter(sb, p.conversationId, p.messageId)).toHaveLength(1);
    expect(answered.size).toBe(PLAIN.length);
  });
});
