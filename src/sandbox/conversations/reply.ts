/**
 * Replying inside a conversation (POST /conversations/{id}/messages): the contract's refusals in
 * its order, then the charge and the queued message. Nothing is charged or changed on a refusal.
 */
import type { ReplyResult } from "../../contract/resources.js";
import { type ApiResponse, standardError } from "../http/responses.js";
import type { PriceTable } from "../prices.js";
import type { Store } from "../state/store.js";
import type { ConversationRecord, World } from "../state/world.js";
import { replyCost } from "./billing.js";
import { planProgress } from "./delivery.js";
import { contactOptedOut, numberReleased } from "./view.js";

/** Rules 1 and 2 of the contract, in its order; undefined when the reply may go out. */
export function replyRefusal(
  w: World,
  prices: PriceTable,
  c: ConversationRecord,
  text: string,
): ApiResponse | undefined {
  if (numberReleased(w, c))
    return standardError(409, "PHONE_NUMBER_UNAVAILABLE", "The conversation's sending number was released");
  if (contactOptedOut(w, c)) return standardError(409, "CONTACT_OPTED_OUT", "The contact replied STOP");
  if (c.phone_number_id === null)
    return standardError(409, "CONVERSATION_NOT_SENDABLE", "The conversation has no sending number");
  const project = w.projects[c.project_id];
  if (project === undefined || project.deleted === true)
    return standardError(409, "PROJECT_DELETED", "The conversation's project was deleted");
  const cost = replyCost(w, prices, c.phone_number_id, text);
  const balance = w.organizations[project.organization_id]?.balance_cents ?? 0;
  if (balance < cost.cents)
    return standardError(402, "INSUFFICIENT_BALANCE", "Insufficient balance to send this reply", {
      organization_id: project.organization_id,
      balance_cents: balance,
      required_cents: cost.cents,
      shortfall_cents: cost.cents - balance,
      segments: cost.segments,
      encoding: cost.encoding,
      rate_cents_per_segment: cost.rateE4 / 100,
    });
  return undefined;
}

/**
 * Charges the project's organization, appends the reply to the thread as `queued` with its planned
 * course, and returns the 202 result. Call inside `store.mutate`, after `replyRefusal` passed.
 */
export function queueReply(
  store: Store,
  w: World,
  c: ConversationRecord,
  prices: PriceTable,
  text: string,
  nowMs: number,
  seed: number,
): ReplyResult {
  const project = w.projects[c.project_id];
  const org = project ? w.organizations[project.organization_id] : undefined;
  const cost = replyCost(w, prices, c.phone_number_id ?? "", text);
  if (org) org.balance_cents -= cost.cents;
  if (project) project.counters.actual_cost_e4 += cost.costE4;
  const messageId = store.nextId(w);
  const createdAt = new Date(nowMs).toISOString();
  c.messages.push({
    message_id: messageId,
    direction: "outbound",
    text,
    media_urls: [],
    status: "queued",
    at: createdAt,
    error_code: null,
    sent_at: null,
    delivered_at: null,
    pending: planProgress(seed, messageId, nowMs),
  });
  return {
    message_id: messageId,
    conversation_id: c.conversation_id,
    project_id: c.project_id,
    from: c.from,
    to: c.to,
    text,
    created_at: createdAt,
  };
}
