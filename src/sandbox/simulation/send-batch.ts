/**
 * One batch of a project's sends: up to `messages_per_batch` recipients, each rendered with the
 * sandbox's merge-tag rules (contact fields, inline fallbacks, organization defaults) plus the
 * opt-out footer when enabled, sent from the project's numbers round-robin, billed, counted against
 * the brand's Pacific day and announced with `message.sent`. The carrier receipt follows after
 * `receipt_delay_ms`. The daily cap (bypass off) pauses the project when the brand's sends of the
 * Pacific day reach it; the last recipient completes the project.
 */
import { OPT_OUT_FOOTER } from "../../contract/limits.js";
import { emitEvent } from "../events/outbox.js";
import { messagePriceE4 } from "../prices.js";
import { mergeDefaultsFor, renderMergeTags } from "../render.js";
import { segmentsOf } from "../sms.js";
import type { ProjectRecord, SendPlanRecord, SentMessageRecord } from "../state/world.js";
import type { WorkItem } from "./agenda.js";
import { recipientContact } from "./audience.js";
import { DAILY_CAP_REASON } from "./daily-cap.js";
import { messageEventPayload } from "./event-payloads.js";
import { drawOutcome, hasLink, NO_NUMBER_ERROR } from "./outcomes.js";
import { iso, type StepContext } from "./step.js";

export function runBatch(ctx: StepContext, p: ProjectRecord, plan: SendPlanRecord): WorkItem[] {
  const { world: w, nowMs, settings } = ctx;
  const work: WorkItem[] = [];
  const brand = w.brands[p.brand_id];
  const cap = brand?.daily_cap ?? null;
  const enforced = cap !== null && !p.daily_cap_bypass;
  const atCap = (): boolean => cap !== null && ctx.dailySends.count(p.brand_id, nowMs) >= cap;
  let sent = 0;
  while (sent < settings.messages_per_batch && plan.next_index < plan.recipients.length) {
    if (enforced && atCap()) return pauseAtCap(ctx, p, plan);
    const recipient = plan.recipients[plan.next_index];
    plan.next_index += 1;
    if (recipient === undefined) continue;
    const contact = recipientContact(w, recipient);
    if (contact === undefined || contact.opted_out) continue;
    const message = sendOne(ctx, p, contact.phone, { phone: contact.phone, ...contact.fields }, atCap());
    work.push({ kind: "receipt", at: Date.parse(message.receipt_at), messageId: message.message_id });
    sent += 1;
  }
  if (plan.next_index >= plan.recipients.length) {
    plan.next_batch_at = null;
    ctx.dirty.add(p);
    p.status = "completed";
    p.completed_at = iso(nowMs);
    return work;
  }
  if (enforced && atCap()) return [...work, ...pauseAtCap(ctx, p, plan)];
  const next = nowMs + settings.batch_interval_ms;
  plan.next_batch_at = iso(next);
  work.push({ kind: "batch", at: next, projectId: p.project_id });
  return work;
}

function pauseAtCap(ctx: StepContext, p: ProjectRecord, plan: SendPlanRecord): WorkItem[] {
  plan.next_batch_at = null;
  p.status = "paused";
  p.pause_reason = DAILY_CAP_REASON;
  ctx.dirty.add(p);
  return [];
}

function sendOne(
  ctx: StepContext,
  p: ProjectRecord,
  phone: string,
  values: Record<string, string>,
  overCap: boolean,
): SentMessageRecord {
  const { world: w, nowMs, settings, store } = ctx;
  const numbers = p.phone_number_ids;
  const numberId = numbers.length > 0 ? (numbers[p.counters.messages_sent % numbers.length] ?? null) : null;
  const from = numberId === null ? "" : (w.phoneNumbers[numberId]?.number ?? "");
  const footer = p.opt_out_footer_enabled ? `\n${OPT_OUT_FOOTER}` : "";
  const text = renderMergeTags(p.message_text, values, mergeDefaultsFor(w, p.organization_id)) + footer;
  const segments = segmentsOf(text).segments;
  const mms = p.media_urls.length > 0;
  const channel = numberId === null ? undefined : w.phoneNumbers[numberId]?.channel;
  const cost = messagePriceE4(settings, channel, segments, mms);
  const draw = drawOutcome(ctx.seed, p.project_id, phone, overCap, settings, hasLink(text));
  const errorCode = from === "" ? NO_NUMBER_ERROR : draw.error_code;
  const receiptAt = nowMs + settings.receipt_delay_ms;
  const message: SentMessageRecord = {
    message_id: store.nextId(w),
    project_id: p.project_id,
    organization_id: p.organization_id,
    brand_id: p.brand_id,
    phone_number_id: numberId,
    from,
    to: phone,
    text,
    media_urls: [...p.media_urls],
    segments,
    cost_e4: cost,
    status: "sent",
    error_code: errorCode,
    over_cap: overCap,
    sent_at: iso(nowMs),
    receipt_at: iso(receiptAt),
    delivered_at: null,
    failed_at: null,
    conversation_id: null,
    reply:
      errorCode === null && draw.reply !== null
        ? { at: iso(receiptAt + draw.reply.after_ms), text: draw.reply.text, done: false }
        : null,
    click:
      errorCode === null && draw.click !== null
        ? {
            at: iso(receiptAt + draw.click.after_ms),
            repeat_at:
              draw.click.repeat_after_ms === null
                ? null
                : iso(receiptAt + draw.click.after_ms + draw.click.repeat_after_ms),
            done: 0,
          }
        : null,
  };
  w.messages[message.message_id] = message;
  p.counters.messages_sent += 1;
  p.counters.actual_cost_e4 += cost;
  ctx.dailySends.add(p.brand_id, nowMs);
  emitEvent(store, w, {
    kind: "message.sent",
    organizationId: p.organization_id,
    payload: messageEventPayload(message),
    at: message.sent_at,
  });
  return message;
}
