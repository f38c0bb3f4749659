/**
 * An inbound text from a contact, the one path for both sources (a simulated reply to a project
 * send and one injected with `POST /_sandbox/inbound`): appended to the thread, opt-out and opt-in
 * keywords applied, the project's `replies_received` counted and `message.replied` emitted with
 * exactly the contract's fields.
 *
 * The one opt-out rule (our choice, documented): a STOP opts the contact's phone out of the whole
 * organization that owns the project: every conversation with that phone in that organization's
 * projects becomes `opted_out`, every contact list of that organization marks the contact opted
 * out (so no later project send reaches it), and the project counts it once in
 * `messages_opted_out`. An opt-in keyword (START, UNSTOP...) clears both.
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
  const orgId = w.projects[c.project_id]?.organization_id ?? c.organization_id;
  for (const other of Object.values(w.conversations))
    if (
      other.to === c.to &&
      (w.projects[other.project_id]?.organization_id ?? other.organization_id) === orgId
    )
      other.opted_out = optedOut;
  for (const list of Object.values(w.contactLists))
    if (list.organization_id === orgId)
      for (const contact of list.contacts) if (contact.phone === c.to) contact.opted_out = optedOut;
}
