/**
 * `replies plan`: what `replies run` would do with the inbounds of a window, without sending. It
 * reads the conversations whose `last_inbound_at` is in the window (one `GET /conversations` pass)
 * and each one's thread, then judges every inbound of the window oldest first exactly as the worker
 * does (decide.ts), counting an answer it would send as sent for the inbounds after it. Pure apart
 * from the injected reads.
 */
import type { ApiError } from "../api/index.js";
import { instantMs } from "../contract/instant.js";
import type { Conversation, ThreadMessage } from "../contract/resources.js";
import { analyzeSegments } from "../message/segments.js";
import { decideInbound, recordedAnswers } from "./decide.js";
import { passOrder } from "./poll-window.js";
import { PAGE_LIMIT, type RepliesPort, type ReplyProject, readThread } from "./port.js";
import type { AnsweredLine } from "./state-file.js";

export const REPLIES_PLAN_FORMAT_VERSION = 1;

/** What would happen to one inbound; `answer` alone sends. */
export type PlanVerdict =
  | "answer"
  | "answered"
  | "refused-before"
  | "opt-out"
  | "unmatched"
  | "limit"
  | "no-rules";

export const PLAN_VERDICTS: readonly PlanVerdict[] = [
  "answer",
  "answered",
  "refused-before",
  "opt-out",
  "unmatched",
  "limit",
  "no-rules",
];

export interface PlannedInbound {
  readonly conversation_id: string;
  readonly project_id: string;
  readonly address: string | null;
  readonly message_id: string;
  readonly received_at: string;
  readonly text: string;
  readonly verdict: PlanVerdict;
  readonly rule: string | null;
  /** What matched: `keyword (language)` or `pattern`; null when nothing did. */
  readonly matched: string | null;
  readonly segments: number;
  readonly detail: string | null;
}

/** Per project and rule: answers to send, and their segments. */
export interface PlanRuleLine {
  readonly address: string;
  readonly rule: string;
  readonly answers: number;
  readonly segments: number;
}

export interface ReplyPlan {
  readonly format_version: number;
  readonly now: string;
  readonly since: string;
  readonly conversations: number;
  readonly inbounds: readonly PlannedInbound[];
  readonly totals: Readonly<Record<PlanVerdict, number>>;
  readonly rules: readonly PlanRuleLine[];
  readonly segments: number;
  /** Segments times `--segment-price`; null without a price. */
  readonly cost_usd: number | null;
  /** Requests the plan made (each counts against the key's 100 a minute). */
  readonly requests: number;
}

export interface PlanInput {
  readonly port: RepliesPort;
  readonly projects: readonly ReplyProject[];
  readonly revocation: readonly { readonly word: string }[];
  readonly now: number;
  readonly since: number;
  /** What a worker's record settled already (`--state`); empty without it. */
  readonly answered: ReadonlyMap<string, AnsweredLine>;
  readonly segmentPriceUsd: number | null;
}

export async function planReplies(
  input: PlanInput,
): Promise<{ ok: true; plan: ReplyPlan } | { ok: false; error: ApiError }> {
  let requests = 0;
  const since = new Date(input.since).toISOString();
  const conversations: Conversation[] = [];
  let page: string | null = null;
  do {
    requests++;
    const res = await input.port.listConversations({ updated_since: since, limit: PAGE_LIMIT }, page);
    if (!res.ok) return res;
    conversations.push(...res.value.data);
    page = res.value.has_more ? res.value.next_cursor : null;
  } while (page !== null);
  const byId = new Map(input.projects.map((p) => [p.id, p]));
  const inbounds: PlannedInbound[] = [];
  for (const c of passOrder(conversations)) {
    const project = byId.get(c.project_id);
    requests++;
    const read = await readThread(input.port, c.conversation_id, null);
    if (!read.ok) return read;
    inbounds.push(...judgeConversation(c, project, read.value, input));
  }
  const totals = Object.fromEntries(PLAN_VERDICTS.map((v) => [v, 0])) as Record<PlanVerdict, number>;
  const rules = new Map<string, { address: string; rule: string; answers: number; segments: number }>();
  let segments = 0;
  for (const i of inbounds) {
    totals[i.verdict]++;
    if (i.verdict !== "answer" || i.address === null || i.rule === null) continue;
    segments += i.segments;
    const key = `${i.address}\u0000${i.rule}`;
    const line = rules.get(key) ?? { address: i.address, rule: i.rule, answers: 0, segments: 0 };
    line.answers++;
    line.segments += i.segments;
    rules.set(key, line);
  }
  return {
    ok: true,
    plan: {
      format_version: REPLIES_PLAN_FORMAT_VERSION,
      now: new Date(input.now).toISOString(),
      since,
      conversations: conversations.length,
      inbounds,
      totals,
      rules: [...rules.values()],
      segments,
      cost_usd:
        input.segmentPriceUsd === null ? null : Math.round(segments * input.segmentPriceUsd * 1e6) / 1e6,
      requests,
    },
  };
}

function judgeConversation(
  c: Conversation,
  project: ReplyProject | undefined,
  thread: ThreadMessage[],
  input: PlanInput,
): PlannedInbound[] {
  const out: PlannedInbound[] = [];
  const answersOfRecord = recordedAnswers(
    [...input.answered.values()].filter((l) => l.conversation_id === c.conversation_id),
  );
  const inbounds = thread
    // By the instant, however the API writes it (an offset, no fraction): not by the text.
    .filter((m) => m.direction === "inbound" && (instantMs(m.received_at ?? "") ?? Number.NaN) >= input.since)
    .reverse();
  for (const m of inbounds) {
    const base = {
      conversation_id: c.conversation_id,
      project_id: c.project_id,
      address: project?.address ?? null,
      message_id: m.message_id,
      received_at: m.received_at ?? "",
      text: m.text,
    };
    const line = (
      verdict: PlanVerdict,
      rest: { rule?: string | null; matched?: string | null; segments?: number; detail?: string | null } = {},
    ): PlannedInbound => ({
      ...base,
      verdict,
      rule: rest.rule ?? null,
      matched: rest.matched ?? null,
      segments: rest.segments ?? 0,
      detail: rest.detail ?? null,
    });
    if (project === undefined) {
      out.push(line("no-rules", { detail: "its project has no reply rules in the files" }));
      continue;
    }
    const recorded = input.answered.get(m.message_id);
    if (recorded !== undefined) {
      out.push(
        line(recorded.t === "answered" ? "answered" : "refused-before", {
          rule: recorded.rule,
          detail: recorded.t === "answered" ? `answer ${recorded.answer_message_id}` : recorded.code,
        }),
      );
      continue;
    }
    const d = decideInbound({
      thread,
      inboundId: m.message_id,
      replies: project.replies,
      revocation: input.revocation,
      conversationOptedOut: c.opted_out,
      eventOptOut: false,
      recorded: answersOfRecord,
    });
    const matched = (by: { keyword: string; language: string } | { pattern: string }) =>
      "keyword" in by ? `keyword "${by.keyword}" (${by.language})` : `pattern ${by.pattern}`;
    switch (d.kind) {
      case "missing":
        break;
      case "opt-out":
        out.push(line("opt-out", { detail: d.reason }));
        break;
      case "unmatched":
        out.push(line("unmatched", { detail: d.reason ?? null }));
        break;
      case "answered":
        out.push(
          line("answered", {
            rule: d.match.rule.name,
            matched: matched(d.match.by),
            detail: `answer ${d.answerId}`,
          }),
        );
        break;
      case "limit":
        out.push(
          line("limit", {
            rule: d.match.rule.name,
            matched: matched(d.match.by),
            detail:
              d.limit === "rule"
                ? `rule answered ${d.count} times in this conversation`
                : `${d.count} answers in 24 hours`,
          }),
        );
        break;
      case "answer": {
        const segments = analyzeSegments(d.match.rule.answer).segments;
        out.push(line("answer", { rule: d.match.rule.name, matched: matched(d.match.by), segments }));
        thread.unshift({
          message_id: `(planned ${m.message_id})`,
          direction: "outbound",
          text: d.match.rule.answer,
          media_urls: [],
          status: "unsent",
          sent_at: null,
          delivered_at: null,
          error_code: null,
        });
        break;
      }
    }
  }
  return out;
}
