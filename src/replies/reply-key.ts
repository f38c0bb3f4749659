/**
 * The Idempotency-Key of an answer (design.md "Idempotency keys"): keyed on the inbound message and
 * the rule that answers it, so one inbound gets at most one answer per rule, whichever run, process
 * or path (event or poll) sends it. Pure.
 */
import { idempotencyKey } from "../api/index.js";

/**
 * `unpaid` counts the 402 INSUFFICIENT_BALANCE answers this inbound already had (nothing was sent
 * nor charged): the API replays a key's stored answer for 24 hours, so the answer sent once funds
 * are there needs a new key. It is 0, and left out of the key, otherwise.
 */
export function replyKey(conversationId: string, inboundId: string, rule: string, unpaid = 0): string {
  return idempotencyKey({
    org: "",
    project_id: null,
    action: "reply",
    body: {
      conversation_id: conversationId,
      inbound_message_id: inboundId,
      rule,
      ...(unpaid === 0 ? {} : { after_insufficient_balance: unpaid }),
    },
    based_on: null,
  });
}
