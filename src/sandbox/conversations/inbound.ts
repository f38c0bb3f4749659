/**
 * An inbound text from a contact: appended to the thread, opt-out and opt-in keywords applied, the
 * project's `replies_received` counted and `message.replied` emitted with exactly the contract's
 * fields. Keywords and the payload are the sending simulation's (`simulation/keywords.ts`,
 * `simulation/event-payloads.ts`) so both sources of inbound texts behave alike. An opt-out marks
 * the contact opted out in every conversation of the project and in every contact list of the
 * project's organization, and counts in `messages_opted_out`; an opt-in clears both.
 */
import { emitEvent } from "../events/outbox.js";
import { repliedPayload } from "../simulation/event-payloads.js";
import { classifyInbound } from "../simulation/keywords.js";
import type { Store } from "../state/store.js";
import type { ConversationMessageRecord, ConversationRecord, World } from "../state/world.js";

/** Appends the inbound message at `at` and applies its effects. Call inside `store.mutate`. */
export function receiveInbound(
  store: Store,
  w: World,
  c: ConversationRecord,
  text: string,
  at: string,
  nowIso: string,
): { message: ConversationMessageRecord; payload: Record<string, unknown> } {
  const message: ConversationMessageRecord = {
    message_id: store.nextId(w),
    direction: "inbound",
    text,
    media_urls: [],
    status: "received",
    at,
    error_code: null,
  };
  c.messages.push(message);
  const flags = classifyInbound(text);
  const project = w.projects[c.project_id];
  if (flags.is_opt_out) setOptOut(w, c, true);
  else if (flags.is_opt_in) setOptOut(w, c, false);
  if (project) {
    project.counters.replies_received += 1;
    if (flags.is_opt_out) project.counters.messages_opted_out += 1;
  }
  const payload = repliedPayload({
    conversation_id: c.conversation_id,
    message_id: message.message_id,
    from: c.to,
    to: c.from,
    text,
    ...flags,
  });
  emitEvent(store, w, { kind: "message.replied", organizationId: c.organization_id, payload, at: nowIso });
  return { message, payload };
}

function setOptOut(w: World, c: ConversationRecord, optedOut: boolean): void {
  for (const other of Object.values(w.conversations))
    if (other.project_id === c.project_id && other.to === c.to) other.opted_out = optedOut;
  const orgId = w.projects[c.project_id]?.organization_id ?? c.organization_id;
  for (const list of Object.values(w.contactLists))
    if (list.organization_id === orgId)
      for (const contact of list.contacts) if (contact.phone === c.to) contact.opted_out = optedOut;
}
