/**
 * A queued reply's course on the virtual clock: `queued` -> `sent` one second later -> `delivered`
 * (or `failed`, about 1 in 50, deterministic by seed and message id) three seconds after that, with
 * a `message.sent` and then a `message.delivered` or `message.failed` event for the message, each
 * carrying the conversation id (payload members as the sending simulation's, see
 * `simulation/event-payloads.ts`). The plan is stored on the message (`pending`), so timers only
 * trigger it: a stale timer (after a reset) or a duplicate one changes nothing.
 */
import type { SandboxContext } from "../context.js";
import { emitEvent } from "../events/outbox.js";
import { hash32, seededRandom } from "../ids.js";
import { segmentsOf } from "../sms.js";
import type { Store } from "../state/store.js";
import type { ConversationMessageRecord, ConversationRecord, ReplyProgress, World } from "../state/world.js";

export const SEND_DELAY_MS = 1_000;
export const DELIVERY_DELAY_MS = 3_000;
export const FAILURE_RATE = 0.02;
/** The carrier error of a failed reply (unreachable destination handset). */
export const FAILURE_ERROR_CODE = "30003";

export function planProgress(seed: number, messageId: string, nowMs: number): ReplyProgress {
  const failed = seededRandom(hash32(`${seed}|reply|${messageId}`))() < FAILURE_RATE;
  return {
    sent_at: new Date(nowMs + SEND_DELAY_MS).toISOString(),
    final_at: new Date(nowMs + SEND_DELAY_MS + DELIVERY_DELAY_MS).toISOString(),
    outcome: failed ? "failed" : "delivered",
    error_code: failed ? FAILURE_ERROR_CODE : null,
  };
}

/** Moves one message along its plan as far as `nowMs` allows, emitting its events. */
export function settleMessage(
  store: Store,
  w: World,
  c: ConversationRecord,
  m: ConversationMessageRecord,
  nowMs: number,
): void {
  const plan = m.pending;
  if (plan === undefined) return;
  const project = w.projects[c.project_id];
  const payload = (status: "sent" | "delivered" | "failed"): Record<string, unknown> => ({
    message_id: m.message_id,
    project_id: c.project_id,
    conversation_id: c.conversation_id,
    from: c.from,
    to: c.to,
    status,
    error_code: status === "failed" ? plan.error_code : null,
    segments: segmentsOf(m.text).segments,
    sent_at: plan.sent_at,
    delivered_at: status === "delivered" ? plan.final_at : null,
    failed_at: status === "failed" ? plan.final_at : null,
  });
  if (m.status === "queued" && nowMs >= Date.parse(plan.sent_at)) {
    m.status = "sent";
    m.sent_at = plan.sent_at;
    if (project) project.counters.messages_sent += 1;
    emitEvent(store, w, {
      kind: "message.sent",
      organizationId: c.organization_id,
      payload: payload("sent"),
      at: plan.sent_at,
    });
  }
  if (m.status === "sent" && nowMs >= Date.parse(plan.final_at)) {
    delete m.pending;
    m.status = plan.outcome;
    switch (plan.outcome) {
      case "delivered":
        m.delivered_at = plan.final_at;
        if (project) project.counters.messages_delivered += 1;
        break;
      case "failed":
        m.error_code = plan.error_code;
        if (project) project.counters.messages_failed += 1;
        break;
    }
    emitEvent(store, w, {
      kind: plan.outcome === "delivered" ? "message.delivered" : "message.failed",
      organizationId: c.organization_id,
      payload: payload(plan.outcome),
      at: plan.final_at,
    });
  }
}

/** Arms the clock for both steps of a message's plan. */
export function scheduleProgress(sandbox: SandboxContext, conversationId: string, messageId: string): void {
  const m = findMessage(sandbox.store.world, conversationId, messageId);
  if (m?.pending === undefined) return;
  const step = (): void => {
    const { store } = sandbox;
    const c = store.world.conversations[conversationId];
    const message = findMessage(store.world, conversationId, messageId);
    if (c === undefined || message?.pending === undefined) return;
    store.mutate((w) => settleMessage(store, w, c, message, sandbox.clock.nowMs()));
  };
  sandbox.clock.schedule(Date.parse(m.pending.sent_at), step);
  sandbox.clock.schedule(Date.parse(m.pending.final_at), step);
}

const resumed = new WeakSet<SandboxContext>();

/**
 * Re-arms the clock for every reply still in flight in the world (after a restart from a state
 * file, timers are gone but plans are stored). Runs once per sandbox; the routes call it lazily.
 */
export function resumeReplies(sandbox: SandboxContext): void {
  if (resumed.has(sandbox)) return;
  resumed.add(sandbox);
  for (const c of Object.values(sandbox.store.world.conversations))
    for (const m of c.messages)
      if (m.pending !== undefined) scheduleProgress(sandbox, c.conversation_id, m.message_id);
}

function findMessage(
  w: World,
  conversationId: string,
  messageId: string,
): ConversationMessageRecord | undefined {
  return w.conversations[conversationId]?.messages.find((m) => m.message_id === messageId);
}
