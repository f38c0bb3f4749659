/** The pure judgement of one inbound on its thread, and the word matching under it. */
import { describe, expect, it } from "vitest";
import type { RepliesSpec } from "../../src/campaign/model.js";
import { matchRule } from "../../src/campaign/reply-match.js";
import type { ThreadMessage } from "../../src/contract/resources.js";
import { foldText, hasPhrase, revocationIn, revocationWords } from "../../src/message/reply-words.js";
import { answerFollows, decideInbound } from "../../src/replies/decide.js";
import { replyKey } from "../../src/replies/reply-key.js";

const RULES: RepliesSpec = {
  rules: [
    {
      name: "where",
      keywords: { en: ["where do i vote"], es: ["dónde voto"] },
      answer: "At the school.",
      maxPerConversation: 1,
    },
    { name: "who", pattern: "\\bwho is this\\b", answer: "Jane's campaign.", maxPerConversation: 2 },
  ],
  maxPerConversationPerDay: 2,
};
const words = revocationWords();

const inbound = (id: string, text: string, at: string): ThreadMessage => ({
  message_id: id,
  direction: "inbound",
  text,
  media_urls: [],
  status: "received",
  sent_at: null,
  delivered_at: null,
  received_at: at,
  error_code: null,
});
const outbound = (id: string, text: string, at: string | null): ThreadMessage => ({
  message_id: id,
  direction: "outbound",
  text,
  media_urls: [],
  status: "sent",
  sent_at: at,
  delivered_at: null,
  error_code: null,
});
const decide = (thread: ThreadMessage[], id: string, extra: { optedOut?: boolean; event?: boolean } = {}) =>
  decideInbound({
    thread,
    inboundId: id,
    replies: RULES,
    revocation: words,
    conversationOptedOut: extra.optedOut ?? false,
    eventOptOut: extra.event ?? false,
  });

describe("words", () => {
  it("folds case, accents and punctuation, and matches whole words only", () => {
    expect(foldText("¿DÓNDE   voto?!")).toBe("donde voto");
    expect(hasPhrase("¿Dónde voto?", "donde VOTO")).toBe(true);
    expect(hasPhrase("voters", "vote")).toBe(false);
    expect(revocationIn("No más, gracias", words)).toBe("no mas");
    expect(revocationIn("Stopping by later", words)).toBeNull();
    expect(revocationIn("please STOP.", words)).toBe("stop");
  });

  it("reads a revocation word written with an apostrophe", () => {
    for (const t of ["Don't text me", "DON’T TEXT ME!", "dont text me"])
      expect(revocationIn(`${t} who is this`, words), t).not.toBeNull();
    expect(decide([inbound("m1", "Don't text me. Who is this?", "2026-11-03T12:00:00Z")], "m1").kind).toBe(
      "opt-out",
    );
  });

  it("finds its answer after the API's GSM normalization (zero-width dropped, look-alike apostrophes)", () => {
    const thread = [
      outbound("a1", "Don't wait: vote at the school", "2026-11-03T12:01:00Z"),
      inbound("m1", "where?", "2026-11-03T12:00:00Z"),
    ];
    expect(answerFollows(thread, "m1", "Don`t wait: vo\u200dte at the school")?.message_id).toBe("a1");
    expect(answerFollows(thread, "m1", "Don\u201at wait: vote at the school")?.message_id).toBe("a1");
  });

  it("sees a revocation word through zero-width and format characters", () => {
    for (const t of ["S\u200dTOP", "ST\u200bOP", "S\u00adTOP", "\ufeffSTOP", "AL\u200cTO"])
      expect(revocationIn(`${t} who is this`, words), JSON.stringify(t)).not.toBeNull();
    const thread = [inbound("m1", "S\u200dTOP who is this", "2026-11-03T12:00:00Z")];
    expect(decide(thread, "m1").kind).toBe("opt-out");
  });

  it("takes the first rule in file order", () => {
    expect(matchRule(RULES, "who is this? where do I vote")?.rule.name).toBe("where");
    expect(matchRule(RULES, "WHO IS THIS")?.by).toEqual({ pattern: "\\bwho is this\\b" });
    expect(matchRule(RULES, "hello")).toBeNull();
  });

  it("keys an answer on inbound and rule only", () => {
    expect(replyKey("c1", "m1", "where")).toBe(replyKey("c1", "m1", "where"));
    expect(replyKey("c1", "m1", "where")).not.toBe(replyKey("c1", "m1", "who"));
    expect(replyKey("c1", "m1", "where")).not.toBe(replyKey("c1", "m2", "where"));
    // After a 402 (nothing sent), the next answer needs a key the API has not stored the 402 under.
    expect(replyKey("c1", "m1", "where", 0)).toBe(replyKey("c1", "m1", "where"));
    expect(replyKey("c1", "m1", "where", 1)).not.toBe(replyKey("c1", "m1", "where"));
  });
});

describe("decideInbound", () => {
  const t0 = "2026-12-01T15:00:00.000Z";
  it("answers a match, and sees its own answer after the inbound (GSM-normalized text too)", () => {
    const thread = [inbound("m1", "where do I vote?", t0)];
    expect(decide(thread, "m1")).toMatchObject({ kind: "answer", match: { rule: { name: "where" } } });
    const answered = [outbound("a1", "AT the school", null), ...thread];
    expect(decide(answered, "m1")).toMatchObject({ kind: "answered", answerId: "a1" });
    expect(answerFollows(answered, "m1", "At the school.")?.message_id).toBe("a1");
    expect(answerFollows(thread, "m1", "At the school.")).toBeNull();
  });

  it("never answers an opt-out: the event's flag, the conversation's, or a revocation word", () => {
    const thread = [inbound("m1", "where do I vote? otherwise STOP", t0)];
    expect(decide(thread, "m1")).toMatchObject({ kind: "opt-out" });
    const plain = [inbound("m2", "where do I vote", t0)];
    expect(decide(plain, "m2", { event: true })).toEqual({ kind: "opt-out", reason: "is_opt_out" });
    expect(decide(plain, "m2", { optedOut: true })).toMatchObject({ kind: "opt-out" });
  });

  it("keeps the limits per rule and per 24 hours", () => {
    const earlier = "2026-11-30T15:00:00.000Z";
    const thread = [
      inbound("m3", "where do I vote", t0),
      outbound("a1", "At the school.", earlier),
      inbound("m1", "where do I vote", earlier),
    ];
    expect(decide(thread, "m3")).toMatchObject({ kind: "limit", limit: "rule", count: 1 });
    const day = [
      inbound("m5", "who is this", t0),
      outbound("a2", "Jane's campaign.", "2026-12-01T14:00:00.000Z"),
      outbound("a1", "At the school.", "2026-12-01T13:00:00.000Z"),
      inbound("m1", "where do I vote", earlier),
    ];
    expect(decide(day, "m5")).toMatchObject({ kind: "limit", limit: "day", count: 2 });
    const old = day.map((m) => (m.message_id === "a1" ? { ...m, sent_at: "2026-11-29T13:00:00.000Z" } : m));
    expect(decide(old, "m5")).toMatchObject({ kind: "answer" });
  });

  it("counts the record's answers toward the limits when the answer text was edited since", () => {
    const earlier = "2026-11-30T15:00:00.000Z";
    // a1 went out with the rule's answer as it read then; the file now says "At the school."
    const thread = [
      inbound("m3", "where do I vote", t0),
      outbound("a1", "At the old school.", earlier),
      inbound("m1", "where do I vote", earlier),
    ];
    expect(decide(thread, "m3")).toMatchObject({ kind: "answer" });
    const recorded = [{ rule: "where", answerId: "a1", at: earlier }];
    expect(
      decideInbound({
        thread,
        inboundId: "m3",
        replies: RULES,
        revocation: words,
        conversationOptedOut: false,
        eventOptOut: false,
        recorded,
      }),
    ).toMatchObject({ kind: "limit", limit: "rule", count: 1 });
    // Recorded within 24 hours, of any rule: counted toward the day's limit (2), with the thread's.
    const day = [
      inbound("m5", "who is this", t0),
      outbound("a2", "Jane's old campaign.", "2026-12-01T14:00:00.000Z"),
      outbound("a1", "At the school.", "2026-12-01T13:00:00.000Z"),
      inbound("m1", "where do I vote", earlier),
    ];
    expect(
      decideInbound({
        thread: day,
        inboundId: "m5",
        replies: { ...RULES, rules: RULES.rules.map((r) => ({ ...r, maxPerConversation: 5 })) },
        revocation: words,
        conversationOptedOut: false,
        eventOptOut: false,
        recorded: [
          { rule: "who", answerId: "a2", at: "2026-12-01T14:00:00.000Z" },
          { rule: "where", answerId: "a1", at: "2026-12-01T13:00:00.000Z" },
        ],
      }),
    ).toMatchObject({ kind: "limit", limit: "day", count: 2 });
  });

  it("says when the inbound is not in the thread, and when nothing matches", () => {
    expect(decide([], "m1")).toEqual({ kind: "missing" });
    expect(decide([inbound("m1", "thanks!", t0)], "m1")).toEqual({ kind: "unmatched" });
  });

  it("holds back an answer when a later inbound revokes, and looks at each inbound once per thread", () => {
    const thread = [inbound("m2", "please stop texting me", t0), inbound("m1", "where do I vote?", t0)];
    expect(decide(thread, "m1")).toMatchObject({ kind: "opt-out", reason: expect.stringContaining("m2") });
    const apart = [inbound("m2", "a t t e n d", t0), inbound("m1", "where do I vote?", t0)];
    expect(decide(apart, "m1")).toMatchObject({ kind: "unmatched", reason: expect.stringContaining("m2") });
    // Every inbound of a long thread judged in turn (as a pass does): each text is searched for
    // revocation words once, not once per earlier inbound (quadratic: seconds for 200 long texts).
    let reads = 0;
    const counted = words.map((w) => ({
      get word() {
        reads++;
        return w.word;
      },
    }));
    const long = Array.from({ length: 60 }, (_, k) =>
      inbound(`q${k}`, `where do I vote ${"lorem ipsum ".repeat(20)}${k}`, t0),
    ).reverse();
    for (const m of long)
      decideInbound({
        thread: long,
        inboundId: m.message_id,
        replies: { ...RULES, maxPerConversationPerDay: 100 },
        revocation: counted,
        conversationOptedOut: false,
        eventOptOut: false,
      });
    const perText = reads;
    reads = 0;
    const once = Array.from({ length: 60 }, (_, k) => inbound(`r${k}`, "where do I vote", t0));
    decideInbound({
      thread: once.slice(0, 1),
      inboundId: "r0",
      replies: RULES,
      revocation: counted,
      conversationOptedOut: false,
      eventOptOut: false,
    });
    expect(perText).toBeLessThanOrEqual(60 * reads * 3);
  });
});
