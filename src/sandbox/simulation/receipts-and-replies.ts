/**
 * After a send: the carrier receipt (`message.delivered` or `message.failed`, the counters) and, for
 * a delivered message whose draw says so, the contact's reply. A reply opens a conversation (the
 * outbound message and the inbound reply), counts in `replies_received` and emits `message.replied`.
 * An opt-out keyword marks the contact `opted_out` in every contact list of the project's
 * organization, the conversation `opted_out`, and counts in `messages_opted_out`; an opt-in keyword
 * clears the contact's opt-out in those lists.
 */
import { emitEvent } from "../events/outbox.js";
import type {
  ConversationMessageRecord,
  ConversationRecord,
  SentMessageRecord,
  World,
} from "../state/world.js";
import { messageEventPayload, repliedPayload } from "./event-payloads.js";
import { classifyInbound } from "./keywords.js";
import { iso, type StepContext } from "./step.js";
import type { WorkItem } from "./work-queue.js";

export function applyReceipt(ctx: StepContext, messageId: string): WorkItem[] {
  const { world: w, nowMs, store } = ctx;
  const m = w.messages[messageId];
  const p = m === undefined ? undefined : w.projects[m.project_id];
  if (m === undefined || p === undefined || m.status !== "sent") return [];
  if (m.error_code !== null) {
    m.status = "failed";
    m.failed_at = iso(nowMs);
    p.counters.messages_failed += 1;
  } else {
    m.status = "delivered";
    m.delivered_at = iso(nowMs);
    p.counters.messages_delivered += 1;
  }
  emitEvent(store, w, {
    kind: m.status === "failed" ? "message.failed" : "message.delivered",
    organizationId: p.organization_id,
    payload: messageEventPayload(m),
    at: iso(nowMs),
  });
  if (m.status === "delivered" && m.reply !== null && !m.reply.done)
    return [{ kind: "reply", at: Date.parse(m.reply.at), messageId }];
  return [];
}

export function applyReply(ctx: StepContext, messageId: string): void {
  const { world: w, nowMs, store } = ctx;
  const m = w.messages[messageId];
  const p = m === undefined ? undefined : w.projects[m.project_id];
  if (m?.reply == null || m.reply.done || p === undefined || m.status !== "delivered") return;
  m.reply.done = true;
  const flags = classifyInbound(m.reply.text);
  const conversation = openConversation(ctx, m, m.reply.text);
  m.conversation_id = conversation.conversation_id;
  p.counters.replies_received += 1;
  if (flags.is_opt_out) {
    conversation.opted_out = true;
    p.counters.messages_opted_out += 1;
    setOptOut(w, p.organization_id, m.to, true);
  } else if (flags.is_opt_in) setOptOut(w, p.organization_id, m.to, false);
  const inbound = conversation.messages[conversation.messages.length - 1];
  emitEvent(store, w, {
    kind: "message.replied",
    organizationId: p.organization_id,
    payload: repliedPayload({
      conversation_id: conversation.conversation_id,
      message_id: inbound?.message_id ?? "",
      from: m.to,
      to: m.from,
      text: m.reply.text,
      ...flags,
    }),
    at: iso(nowMs),
  });
}

/** The conversation of (project, contact, number), created when none exists; gets both messages. */
function openConversation(ctx: StepContext, m: SentMessageRecord, text: string): ConversationRecord {
  const { world: w, nowMs, store } = ctx;
  const existing = Object.values(w.conversations).find(
    (c) => c.project_id === m.project_id && c.to === m.to && c.phone_number_id === m.phone_number_id,
  );
  // Ids in the same order as before either way: the conversation's (when new), then the inbound's.
  const conversation: ConversationRecord = existing ?? {
    conversation_id: store.nextId(w),
    project_id: m.project_id,
    organization_id: m.organization_id,
    phone_number_id: m.phone_number_id,
    from: m.from,
    to: m.to,
    opted_out: false,
    is_test: false,
    created_at: m.sent_at,
    messages: [],
  };
  const inbound: ConversationMessageRecord = {
    message_id: store.nextId(w),
    direction: "inbound",
    text,
    media_urls: [],
    status: "received",
    at: iso(nowMs),
    error_code: null,
  };
  if (!conversation.messages.some((x) => x.message_id === m.message_id))
    conversation.messages.push({
      message_id: m.message_id,
      direction: "outbound",
      text: m.text,
      media_urls: [...m.media_urls],
      status: "delivered",
      at: m.sent_at,
      error_code: null,
      sent_at: m.sent_at,
      delivered_at: m.delivered_at,
    });
  conversation.messages.push(inbound);
  w.conversations[conversation.conversation_id] = conversation;
  return conversation;
}

function setOptOut(w: World, organizationId: string, phone: string, optedOut: boolean): void {
  for (const list of Object.values(w.contactLists)) {
    if (list.organization_id !== organizationId) continue;
    for (const c of list.contacts) if (c.phone === phone) c.opted_out = optedOut;
  }
}
