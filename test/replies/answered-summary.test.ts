/** What `status` makes of a worker's record: answers per project and rule, segments, exact costs. */
import { describe, expect, it } from "vitest";
import { summarizeAnswered } from "../../src/replies/answered-summary.js";
import type { AnsweredLine } from "../../src/replies/state-file.js";

const line = (over: Partial<AnsweredLine> & Pick<AnsweredLine, "inbound_message_id">): AnsweredLine => ({
  t: "answered",
  conversation_id: "c1",
  project_id: "p1",
  rule: "where",
  answer_message_id: "m",
  segments: 1,
  code: null,
  at: "2026-11-03T10:00:00.000Z",
  via: "accepted",
  segment_price_usd: 0.0079,
  cost_usd: 0.0079,
  ...over,
});

describe("summarizeAnswered", () => {
  it("counts answers and refusals per rule, sums segments and costs exactly, skips 402 lines", () => {
    const summary = summarizeAnswered([
      line({ inbound_message_id: "i1" }),
      line({ inbound_message_id: "i2", segments: 2, cost_usd: 0.0158 }),
      line({
        inbound_message_id: "i3",
        rule: "who",
        t: "refused",
        answer_message_id: null,
        segments: 0,
        cost_usd: null,
        code: "409 CONTACT_OPTED_OUT",
      }),
      line({ inbound_message_id: "i4", t: "unpaid", answer_message_id: null, segments: 0, cost_usd: null }),
      line({ inbound_message_id: "i5", project_id: "p2", rule: "shift" }),
    ]);
    expect(summary.get("p1")).toEqual({
      projectId: "p1",
      answered: 2,
      refused: 1,
      segments: 3,
      costUsd: 0.0237,
      rules: [
        { rule: "where", answered: 2, refused: 0, segments: 3, costUsd: 0.0237 },
        { rule: "who", answered: 0, refused: 1, segments: 0, costUsd: 0 },
      ],
    });
    expect(summary.get("p2")?.costUsd).toBe(0.0079);
  });

  it("leaves the cost unknown where an answer was recorded without a price (older lines too)", () => {
    const old = line({ inbound_message_id: "i2" });
    const { segment_price_usd: _p, cost_usd: _c, ...withoutCost } = old;
    const summary = summarizeAnswered([
      line({ inbound_message_id: "i1" }),
      withoutCost,
      line({ inbound_message_id: "i3", rule: "who" }),
    ]);
    expect(summary.get("p1")?.costUsd).toBeNull();
    expect(summary.get("p1")?.segments).toBe(3);
    expect(summary.get("p1")?.rules.map((r) => [r.rule, r.costUsd])).toEqual([
      ["where", null],
      ["who", 0.0079],
    ]);
  });

  it("counts an inbound once, by its last settling line", () => {
    const summary = summarizeAnswered([
      line({ inbound_message_id: "i1", t: "unpaid", segments: 0, cost_usd: null }),
      line({ inbound_message_id: "i1" }),
    ]);
    expect(summary.get("p1")?.answered).toBe(1);
  });
});
