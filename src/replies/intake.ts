/**
 * A `message.replied` event of the listener's record as an inbound to settle. Pure. The payload is
 * the contract's (`conversation_id`, `message_id` of the inbound, `to` our number, `is_opt_out`);
 * an event of another kind, or without those ids, is null (the record marks it handled).
 */
import type { RecordedEvent } from "../webhooks/record.js";
import type { InboundJob } from "./settle.js";

export const REPLIED_KIND = "message.replied";

export function inboundOfEvent(event: RecordedEvent): (InboundJob & { readonly to: string | null }) | null {
  if (event.entry.kind !== REPLIED_KIND) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(event.bodyBase64, "base64").toString("utf8"));
  } catch {
    return null;
  }
  if (payload === null || typeof payload !== "object") return null;
  const p = payload as Record<string, unknown>;
  if (typeof p.conversation_id !== "string" || typeof p.message_id !== "string") return null;
  return {
    conversationId: p.conversation_id,
    inboundId: p.message_id,
    via: "event",
    eventOptOut: p.is_opt_out === true,
    conversationOptedOut: false,
    to: typeof p.to === "string" ? p.to : null,
  };
}
