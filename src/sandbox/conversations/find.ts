/** Looking up a conversation for a key: missing and out-of-scope alike are 404 (existence is not revealed). */
import type { AuthContext } from "../context.js";
import { type ApiResponse, notFound } from "../http/responses.js";
import type { ConversationRecord, World } from "../state/world.js";

export function findConversation(w: World, auth: AuthContext, id: string): ConversationRecord | ApiResponse {
  const c = w.conversations[id];
  if (c === undefined || !auth.orgIds.has(c.organization_id))
    return notFound("CONVERSATION_NOT_FOUND", "Conversation");
  return c;
}

export function isConversation(value: ConversationRecord | ApiResponse): value is ConversationRecord {
  return "conversation_id" in value;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Milliseconds of an RFC 3339 date-time with offset, or undefined when malformed. */
export function parseDateTime(text: string): number | undefined {
  if (!RFC3339.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
