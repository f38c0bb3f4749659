/**
 * Settles one inbound: judge it on its thread (decide.ts) and, when a rule answers it, send the
 * answer through the one write executor with the key of (inbound, rule), then record it durably.
 * The contract's retry guidance, to the letter: 503 SEND_ENQUEUE_FAILED is sent again as is; any
 * other 5xx or a dropped connection re-reads the thread and sends again only when no answer of ours
 * follows the inbound and no later inbound revokes consent (decide.ts); a 4xx is recorded
 * (`refused`) and never sent again; 402 stops the worker.
 */
import { type ApiError, refusesKey, type Sleep } from "../api/index.js";
import { executeWrite, type Reread } from "../api/write-executor.js";
import type { ThreadMessage } from "../contract/resources.js";
import { analyzeSegments } from "../message/segments.js";
import { answerFollows, type Decision, decideInbound, recordedAnswers, revokedAfter } from "./decide.js";
import { type RepliesPort, type ReplyProject, readThread } from "./port.js";
import { replyKey } from "./reply-key.js";
import type { AnsweredLine, RepliesState } from "./state-file.js";

/** One inbound to settle, from an event or a poll. */
export interface InboundJob {
  readonly conversationId: string;
  readonly inboundId: string;
  readonly via: "event" | "poll";
  /** The event's `is_opt_out` (false from a poll). */
  readonly eventOptOut: boolean;
  /** The conversation's `opted_out` from the list (false from an event). */
  readonly conversationOptedOut: boolean;
}

/**
 * How an inbound was settled (or why not yet). Invariants: `answered` means our answer is in the
 * thread and on disk (this run's 202, or found in the thread); `recorded` means it was settled
 * before (the record has it); `refused` is on disk; `unknown` and `unreadable` are not settled and
 * are tried again on a later pass; `no-balance` and `key-refused` stop the worker, nothing recorded
 * for the inbound (`no-balance` writes its `unpaid` line), so a later run answers it.
 */
export type Settled =
  | { readonly kind: "recorded"; readonly line: AnsweredLine }
  | { readonly kind: "answered"; readonly line: AnsweredLine; readonly replayed: boolean }
  | { readonly kind: "refused"; readonly line: AnsweredLine; readonly error: ApiError }
  | { readonly kind: "no-balance"; readonly error: ApiError }
  | { readonly kind: "key-refused"; readonly error: ApiError }
  | {
      readonly kind: "unknown";
      readonly rule: string;
      readonly error: ApiError | null;
      readonly note: string;
    }
  | { readonly kind: "unreadable"; readonly error: ApiError }
  | Exclude<Decision, { readonly kind: "answer" } | { readonly kind: "answered" }>;

export interface SettleContext {
  readonly port: RepliesPort;
  readonly state: RepliesState;
  readonly revocation: readonly { readonly word: string }[];
  /** The API's clock (ms since the epoch). */
  readonly now: () => number;
  readonly sleep: Sleep;
  readonly signal: AbortSignal;
  readonly maxSends: number;
  readonly backoffMs: number;
  /** The price of one SMS segment in dollars (`--segment-price`), written with each answer; null: none. */
  readonly segmentPriceUsd: number | null;
}

/**
 * Settles `job` of `project` on `thread` (newest first, as just read). When an answer goes out (or
 * is found), it is put at the head of `thread`, so a later inbound of the same read is judged with it.
 */
export async function settleInbound(
  ctx: SettleContext,
  project: ReplyProject,
  job: InboundJob,
  thread: ThreadMessage[],
): Promise<Settled> {
  const before = ctx.state.answered.get(job.inboundId);
  if (before !== undefined) return { kind: "recorded", line: before };
  const decision = decideInbound({
    thread,
    inboundId: job.inboundId,
    replies: project.replies,
    revocation: ctx.revocation,
    conversationOptedOut: job.conversationOptedOut,
    eventOptOut: job.eventOptOut,
    recorded: recordedAnswers(ctx.state.answersIn(job.conversationId)),
  });
  const line = (
    fields: Pick<AnsweredLine, "t" | "rule" | "answer_message_id" | "segments" | "code" | "via">,
  ) => {
    const price = fields.t === "answered" ? ctx.segmentPriceUsd : null;
    const written: AnsweredLine = {
      ...fields,
      segment_price_usd: price,
      cost_usd: price === null ? null : answerCost(fields.segments, price),
      inbound_message_id: job.inboundId,
      conversation_id: job.conversationId,
      project_id: project.id,
      at: new Date(ctx.now()).toISOString(),
    };
    ctx.state.append(written);
    return written;
  };
  switch (decision.kind) {
    case "opt-out":
      optedOutFinal(ctx, project, job, thread, line);
      return decision;
    case "missing":
    case "unmatched":
    case "limit":
      return decision;
    case "answered": {
      const rule = decision.match.rule;
      const written = line({
        t: "answered",
        rule: rule.name,
        answer_message_id: decision.answerId,
        segments: analyzeSegments(rule.answer).segments,
        code: null,
        via: "thread",
      });
      return { kind: "answered", line: written, replayed: false };
    }
    case "answer":
      break;
  }
  const rule = decision.match.rule;
  const key = replyKey(
    job.conversationId,
    job.inboundId,
    rule.name,
    ctx.state.unpaid.get(job.inboundId) ?? 0,
  );
  // The answer goes with the key of the project's organization (an event may name no project).
  ctx.port.placeConversation?.(job.conversationId, project.id);
  const outcome = await executeWrite<{ message_id: string; text: string }, ThreadMessage>(
    {
      send: () => ctx.port.replyToConversation(job.conversationId, rule.answer, key),
      reread: async (): Promise<Reread<ThreadMessage>> => {
        const read = await readThread(ctx.port, job.conversationId, job.inboundId);
        if (!read.ok) return { verdict: "unreadable", text: "the thread could not be read", value: null };
        const found = answerFollows(read.value, job.inboundId, rule.answer);
        if (found !== null)
          return {
            verdict: "happened",
            text: `the thread shows our answer ${found.message_id}`,
            value: found,
          };
        // A revocation that came in meanwhile: not sent again; the next pass judges it (opt-out).
        const at = read.value.findIndex((m) => m.message_id === job.inboundId && m.direction === "inbound");
        const revoked = revokedAfter(read.value, at, ctx.revocation);
        return revoked === null
          ? {
              verdict: "not-happened",
              text: "no answer of ours follows the inbound in the thread",
              value: null,
            }
          : { verdict: "changed", text: `not sent again: ${revoked.reason}`, value: null };
      },
    },
    { maxAttempts: ctx.maxSends, firstBackoffMs: ctx.backoffMs, sleep: ctx.sleep, signal: ctx.signal },
  );
  const segments = analyzeSegments(rule.answer).segments;
  const answered = (id: string, text: string, via: AnsweredLine["via"], replayed: boolean): Settled => {
    thread.unshift({
      message_id: id,
      direction: "outbound",
      text,
      media_urls: [],
      status: "queued",
      sent_at: null,
      delivered_at: null,
      error_code: null,
    });
    const written = line({
      t: "answered",
      rule: rule.name,
      answer_message_id: id,
      segments,
      code: null,
      via,
    });
    return { kind: "answered", line: written, replayed };
  };
  switch (outcome.kind) {
    case "accepted":
      return answered(outcome.value.message_id, outcome.value.text, "accepted", outcome.replayed);
    case "happened": {
      const value = outcome.reread.value;
      return value === null
        ? { kind: "unknown", rule: rule.name, error: outcome.error, note: outcome.reread.text }
        : answered(value.message_id, value.text, "thread", false);
    }
    case "refused": {
      const e = outcome.error;
      if (e.kind === "http" && e.status === 402) {
        // Nothing sent nor charged; counted so that the answer sent once funds are there has a new key.
        line({
          t: "unpaid",
          rule: rule.name,
          answer_message_id: null,
          segments: 0,
          code: "402 INSUFFICIENT_BALANCE",
          via: "accepted",
        });
        return { kind: "no-balance", error: e };
      }
      // 401 or 403: the key may not answer (revoked, a missing scope, another organization's). The
      // API took nothing; a key that may answer sends it, so it is not recorded as refused.
      if (refusesKey(e)) return { kind: "key-refused", error: e };
      const written = line({
        t: "refused",
        rule: rule.name,
        answer_message_id: null,
        segments: 0,
        code: e.kind === "http" ? `${e.status} ${e.code}` : e.cause,
        via: "accepted",
      });
      return { kind: "refused", line: written, error: e };
    }
    case "changed":
    case "unreadable":
    case "unknown":
      return { kind: "unknown", rule: rule.name, error: outcome.error, note: outcome.reread.text };
    case "not-taken":
      return {
        kind: "unknown",
        rule: rule.name,
        error: outcome.error,
        note: "not sent: the attempts ran out or the run stopped",
      };
    case "blocked":
    case "stopped":
      return { kind: "unknown", rule: rule.name, error: null, note: outcome.refusal };
  }
}

/**
 * An inbound a rule would answer but for its conversation being opted out (the listing's
 * `opted_out`) is settled for good, `refused` with the code `conversation-opted-out`: the event path
 * meets the same inbound as the API's `409 CONTACT_OPTED_OUT`, recorded `refused`, and a START later
 * must not bring an answer to a question asked before the STOP (in another conversation of the
 * organization, which this thread does not show) or while opted out.
 */
function optedOutFinal(
  ctx: SettleContext,
  project: ReplyProject,
  job: InboundJob,
  thread: readonly ThreadMessage[],
  line: (
    fields: Pick<AnsweredLine, "t" | "rule" | "answer_message_id" | "segments" | "code" | "via">,
  ) => unknown,
): void {
  if (!job.conversationOptedOut || job.eventOptOut) return;
  const otherwise = decideInbound({
    thread,
    inboundId: job.inboundId,
    replies: project.replies,
    revocation: ctx.revocation,
    conversationOptedOut: false,
    eventOptOut: false,
    recorded: recordedAnswers(ctx.state.answersIn(job.conversationId)),
  });
  if (otherwise.kind !== "answer") return;
  line({
    t: "refused",
    rule: otherwise.match.rule.name,
    answer_message_id: null,
    segments: 0,
    code: OPTED_OUT_CODE,
    via: "thread",
  });
}

/** The record's code of an answer not sent because the conversation was opted out when judged. */
export const OPTED_OUT_CODE = "conversation-opted-out";

/** The cost of `segments` at `priceUsd` a segment, in dollars rounded to 1e-6 (as `replies plan` rounds). */
export function answerCost(segments: number, priceUsd: number): number {
  return Math.round(segments * priceUsd * 1e6) / 1e6;
}
