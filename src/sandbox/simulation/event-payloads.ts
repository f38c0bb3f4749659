/**
 * Payloads of the events the simulation emits. `message.replied` carries exactly the contract's
 * fields. The contract does not show the others; ours (`message.sent`, `message.delivered`,
 * `message.failed`) share one shape: message_id, project_id, conversation_id (null until the
 * contact replied), from (our number), to (the contact), status, error_code, segments, sent_at,
 * delivered_at, failed_at.
 */
import type { SentMessageRecord } from "../state/world.js";

export function messageEventPayload(m: SentMessageRecord): Record<string, unknown> {
  return {
    message_id: m.message_id,
    project_id: m.project_id,
    conversation_id: m.conversation_id,
    from: m.from,
    to: m.to,
    status: m.status,
    error_code: m.status === "failed" ? m.error_code : null,
    segments: m.segments,
    sent_at: m.sent_at,
    delivered_at: m.delivered_at,
    failed_at: m.failed_at,
  };
}

/** The contract's `message.replied` payload, member for member. */
export interface RepliedPayload {
  conversation_id: string;
  message_id: string;
  from: string;
  to: string;
  text: string;
  is_opt_out: boolean;
  is_opt_in: boolean;
}

export function repliedPayload(p: RepliedPayload): Record<string, unknown> {
  return {
    conversation_id: p.conversation_id,
    message_id: p.message_id,
    from: p.from,
    to: p.to,
    text: p.text,
    is_opt_out: p.is_opt_out,
    is_opt_in: p.is_opt_in,
  };
}
