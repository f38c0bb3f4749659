/**
 * An inbound text from a contact: appended to the thread, opt-out and opt-in keywords applied, the
 * project's `replies_received` counted and `message.replied` emitted with exactly the contract's
 * fields. Keywords are the whole message (trimmed, case-insensitive, trailing `.`/`!` ignored).
 */
import { emitEvent } from "../events/outbox.js";
import type { Store } from "../state/store.js";
import type { ConversationMessageRecord, ConversationRecord, World } from "../state/world.js";

export const OPT_OUT_KEYWORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"] as const;
export const OPT_IN_KEYWORDS = ["START", "UNSTOP"] as const;

export type Keyword = "opt_out" | "opt_in" | "none";

export function keywordOf(text: string): Keyword {
  const word = text
    .trim()
    .replace(/[.!]+$/, "")
    .toUpperCase();
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(word)) return "opt_out";
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(word)) return "opt_in";
  return "none";
}

/** The `message.replied` payload (contract, Events). */
export interface RepliedPayload {
  conversation_id: string;
  message_id: string;
  from: string;
  to: string;
  text: string;
  is_opt_out: boolean;
  is_opt_in: boolean;
  [member: string]: unknown;
}

/** Appends the inbound message at `at` and applies its effects. Call inside `store.mutate`. */
export function receiveInbound(
  store: Store,
  w: World,
  c: ConversationRecord,
  text: string,
  at: string,
  nowIso: string,
): { message: ConversationMessageRecord; payload: RepliedPayload } {
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
  const keyword = keywordOf(text);
  switch (keyword) {
    case "opt_out":
      setOptOut(w, c, true);
      break;
    case "opt_in":
      setOptOut(w, c, false);
      break;
    case "none":
      break;
  }
  const project = w.projects[c.project_id];
  if (project) project.counters.replies_received += 1;
  const payload: RepliedPayload = {
    conversation_id: c.conversation_id,
    message_id: message.message_id,
    from: c.to,
    to: c.from,
    text,
    is_opt_out: keyword === "opt_out",
    is_opt_in: keyword === "opt_in",
  };
  emitEvent(store, w, { kind: "message.replied", organizationId: c.organization_id, payload, at: nowIso });
  return { message, payload };
}

/** The contact's opt-out state in every conversation of the project and in the project's contact lists. */
function setOptOut(w: World, c: ConversationRecord, optedOut: boolean): void {
  for (const other of Object.values(w.conversations))
    if (other.project_id === c.project_id && other.to === c.to) other.opted_out = optedOut;
  for (const id of w.projects[c.project_id]?.contact_list_ids ?? [])
    for (const contact of w.contactLists[id]?.contacts ?? []) if (contact.phone === c.to) contact.opted_out = optedOut;
}
