/**
 * Conversation records -> the vendor SDK's shapes (design.md): conversation, thread message. `from`
 * is our sending number and `to` the contact (the direction of the project send that started the
 * conversation). Status: `opted_out` when the contact opted out, `inactive` when the conversation
 * can no longer send (no number, number released, project deleted), else `active`.
 */
import type { Conversation, ThreadMessage, ThreadMessageStatus } from "../../contract/resources.js";
import type { ConversationMessageRecord, ConversationRecord, World } from "../state/world.js";

const THREAD_STATUSES: readonly ThreadMessageStatus[] = [
  "unsent",
  "queued",
  "sending",
  "sent",
  "delivered",
  "failed",
  "received",
  "on_hold",
];

/** Whether the conversation's sending number is set but no longer ours (released or removed). */
export function numberReleased(w: World, c: ConversationRecord): boolean {
  if (c.phone_number_id === null) return false;
  const n = w.phoneNumbers[c.phone_number_id];
  return n === undefined || n.status !== "active";
}

/** Whether the contact opted out: in this conversation or in a contact list of its project. */
export function contactOptedOut(w: World, c: ConversationRecord): boolean {
  if (c.opted_out) return true;
  const project = w.projects[c.project_id];
  for (const id of project?.contact_list_ids ?? [])
    for (const contact of w.contactLists[id]?.contacts ?? [])
      if (contact.phone === c.to && contact.opted_out) return true;
  return false;
}

export function conversationStatus(w: World, c: ConversationRecord): Conversation["status"] {
  if (contactOptedOut(w, c)) return "opted_out";
  const project = w.projects[c.project_id];
  if (c.phone_number_id === null || numberReleased(w, c) || project === undefined || project.deleted === true)
    return "inactive";
  return "active";
}

/** Newest `at` of the messages in `direction` (ISO strings of one format compare as instants). */
export function lastAt(c: ConversationRecord, direction: "inbound" | "outbound"): string | null {
  let last: string | null = null;
  for (const m of c.messages) if (m.direction === direction && (last === null || m.at > last)) last = m.at;
  return last;
}

export function conversationView(w: World, c: ConversationRecord): Conversation {
  const opted = contactOptedOut(w, c);
  let first: string | null = null;
  for (const m of c.messages) if (first === null || m.at < first) first = m.at;
  return {
    conversation_id: c.conversation_id,
    project_id: c.project_id,
    from: c.from,
    to: c.to,
    status: conversationStatus(w, c),
    opted_out: opted,
    is_test: c.is_test,
    contact: { phone_number: c.to },
    inbound_messages: c.messages.filter((m) => m.direction === "inbound").length,
    outbound_messages: c.messages.filter((m) => m.direction === "outbound").length,
    first_message_at: first ?? c.created_at,
    last_inbound_at: lastAt(c, "inbound"),
    last_outbound_at: lastAt(c, "outbound"),
    created_at: c.created_at,
  };
}

export function threadMessageView(m: ConversationMessageRecord): ThreadMessage {
  const status =
    THREAD_STATUSES.find((s) => s === m.status) ?? (m.direction === "inbound" ? "received" : "sent");
  if (m.direction === "inbound")
    return {
      message_id: m.message_id,
      direction: "inbound",
      text: m.text,
      media_urls: m.media_urls,
      status,
      sent_at: null,
      delivered_at: null,
      received_at: m.at,
      error_code: m.error_code,
    };
  const wentOut = status === "sent" || status === "delivered" || status === "failed";
  return {
    message_id: m.message_id,
    direction: "outbound",
    text: m.text,
    media_urls: m.media_urls,
    status,
    sent_at: m.sent_at ?? (wentOut ? m.at : null),
    delivered_at: m.delivered_at ?? (status === "delivered" ? m.at : null),
    error_code: m.error_code,
  };
}
