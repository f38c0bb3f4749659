/**
 * The API writes date-times as ISO 8601 (the contract fixes no offset nor fraction): the order a pass
 * settles conversations in and the inbounds `replies plan` judges go by the instant each names, not
 * by its text (src/contract/instant.ts). By text, `2026-12-01T11:30:00-05:00` (16:30Z) sorts before
 * `2026-12-01T16:10:00Z`: a pass stopped after the first moved the cursor past the second (lost), and
 * the plan left out an inbound written with a negative offset.
 */
import { describe, expect, it } from "vitest";
import type { ResponseMeta } from "../../src/api/result.js";
import type { Conversation, ThreadMessage } from "../../src/contract/resources.js";
import { planReplies } from "../../src/replies/plan.js";
import { passOrder } from "../../src/replies/poll-window.js";
import type { RepliesPort } from "../../src/replies/port.js";

const conversation = (id: string, lastInboundAt: string | null): Conversation => ({
  conversation_id: id,
  project_id: "p-1",
  from: "+15550000001",
  to: "+15550000002",
  status: "active",
  opted_out: false,
  is_test: false,
  contact: { phone_number: "+15550000002" },
  inbound_messages: 1,
  outbound_messages: 1,
  first_message_at: "2026-12-01T10:00:00.000Z",
  last_inbound_at: lastInboundAt,
  last_outbound_at: null,
  created_at: "2026-12-01T10:00:00.000Z",
});

describe("date-times written with an offset or without a fraction", () => {
  it("a pass settles conversations oldest instant first, however each is written", () => {
    const order = passOrder([
      conversation("x", "2026-12-01T11:30:00-05:00"), // 16:30Z
      conversation("w", "2026-12-01T12:00:00-05:00"), // 17:00Z
      conversation("y", "2026-12-01T16:10:00Z"), // 16:10Z
      conversation("v", "2026-12-01T16:10:00.500Z"), // after y by half a second
      conversation("n", null),
    ]).map((c) => c.conversation_id);
    expect(order).toEqual(["n", "y", "v", "x", "w"]);
  });

  it("replies plan judges every inbound received since the floor, read as an instant", async () => {
    const meta = {} as ResponseMeta;
    const inbound = (id: string, receivedAt: string): ThreadMessage => ({
      message_id: id,
      direction: "inbound",
      text: "hello",
      media_urls: [],
      status: "received",
      sent_at: null,
      delivered_at: null,
      received_at: receivedAt,
      error_code: null,
    });
    const threads: Record<string, ThreadMessage[]> = {
      // 16:30Z, after the floor (16:00Z): judged. Its text sorts before the floor's.
      a: [inbound("m-new", "2026-12-01T11:30:00-05:00")],
      // 15:30Z, before the floor: not judged. Its text sorts after the floor's.
      b: [inbound("m-old", "2026-12-02T00:30:00+09:00")],
    };
    const port: RepliesPort = {
      listConversations: async () => ({
        ok: true,
        meta,
        value: {
          data: [
            conversation("a", "2026-12-01T11:30:00-05:00"),
            conversation("b", "2026-12-02T00:30:00+09:00"),
          ],
          has_more: false,
          next_cursor: null,
        },
      }),
      getConversationMessages: async (id) => ({
        ok: true,
        meta,
        value: { data: threads[id] ?? [], has_more: false, next_cursor: null },
      }),
      replyToConversation: async () => {
        throw new Error("the plan never answers");
      },
    };
    const result = await planReplies({
      port,
      projects: [],
      revocation: [],
      now: Date.parse("2026-12-01T17:00:00.000Z"),
      since: Date.parse("2026-12-01T16:00:00.000Z"),
      answered: new Map(),
      segmentPriceUsd: null,
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.plan.inbounds.map((i) => i.message_id)).toEqual(["m-new"]);
  });
});
