/**
 * The Idempotency-Key of an answer (design.md "Idempotency keys"): keyed on the inbound message and
 * the rule that answers it, so one inbound gets at most one answer per rule, whichever run, process
 * or path (event or poll) sends it. Pure.
 */
import { idempotencyKey } from "../api/index.js";

export function replyKey(conversationId: string, inboundId: string, rule: string): string {
  return idempotencyKey({
    org: "",
    project_id: null,
    action: "reply",
    body: { conversation_id: conversationId, inbound_message_id: inboundId, rule },
    based_on: null,
  });
}
