/**
 * After a send: the carrier receipt (`message.delivered` or `message.failed`, the counters) and, for
 * a delivered message whose draw says so, the contact's reply and clicks on its link. A reply opens a conversation (with
 * the outbound message) and is then received exactly as an injected inbound text is
 * (`conversations/inbound.ts`: counters, keywords, the one opt-out rule, `message.replied`).
 */

import { receiveInbound } from "../conversations/inbound.js";
import { emitEvent } from "../events/outbox.js";
import type { ConversationRecord, SentMessageRecord } from "../state/world.js";
import type { WorkItem } from "./agenda.js";
import { messageEventPayload } from "./event-payloads.js";
import { iso, type StepContext } from "./step.js";

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
  const next: WorkItem[] = [];
  if (m.status === "delivered" && m.reply !== null && !m.reply.done)
    next.push({ kind: "reply", at: Date.parse(m.reply.at), messageId });
  const click = nextClickAt(m);
  if (click !== null) next.push({ kind: "click", at: click, messageId });
  return next;
}

/** When the next drawn click of a delivered message is due, or null (none left). */
export function nextClickAt(m: SentMessageRecord): number | null {
  const click = m.click ?? null;
  if (m.status !== "delivered" || click === null) return null;
  if (click.done === 0) return Date.parse(click.at);
  if (click.done === 1 && click.repeat_at !== null) return Date.parse(click.repeat_at);
  return null;
}

/**
 * A click on a delivered message's link: `total_url_clicks` +1, and `unique_url_clicks` +1 for its
 * first. Counters only (no `updated_at` change), as for receipts and replies; the next click, if
 * drawn, is returned.
 */
export function applyClick(ctx: StepContext, messageId: string): WorkItem[] {
  const m = ctx.world.messages[messageId];
  const p = m === undefined ? undefined : ctx.world.projects[m.project_id];
  const due = m === undefined ? null : nextClickAt(m);
  if (m?.click == null || p === undefined || due === null || due > ctx.nowMs) return [];
  m.click.done += 1;
  p.counters.total_url_clicks += 1;
  if (m.click.done === 1) p.counters.unique_url_clicks += 1;
  const again = nextClickAt(m);
  return again === null ? [] : [{ kind: "click", at: again, messageId }];
}

export function applyReply(ctx: StepContext, messageId: string): void {
  const { world: w, nowMs, store } = ctx;
  const m = w.messages[messageId];
  const p = m === undefined ? undefined : w.projects[m.project_id];
  if (m?.reply == null || m.reply.done || p === undefined || m.status !== "delivered") return;
  m.reply.done = true;
  const conversation = openConversation(ctx, m);
  m.conversation_id = conversation.conversation_id;
  receiveInbound(store, w, conversation, m.reply.text, iso(nowMs), iso(nowMs));
}

/** The conversation of (project, contact, number), created when none exists, with the outbound message. */
function openConversation(ctx: StepContext, m: SentMessageRecord): ConversationRecord {
  const { world: w, store } = ctx;
  const existing = Object.values(w.conversations).find(
    (c) => c.project_id === m.project_id && c.to === m.to && c.phone_number_id === m.phone_number_id,
  );
  // Ids in the same order either way: the conversation's (when new), then the inbound's.
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
  w.conversations[conversation.conversation_id] = conversation;
  return conversation;
}
