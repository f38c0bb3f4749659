/**
 * What to do with one inbound message, judged from its conversation's thread as just read (design
 * principle 7: a send rests on a read of the same run). Pure. In order:
 *
 * 1. the inbound is not in the thread (yet): `missing`, settled on a later read;
 * 2. an opt-out (the event's `is_opt_out`, a conversation opted out, or a revocation word in the
 *    text as whole words, written plainly or disguised: look-alike characters, letters set apart,
 *    digits for letters, the stop sign; revocation-disguise.ts): `opt-out`, never answered;
 * 3. possibly a revocation (a run of single letters holding one): `unmatched` with the reason, for
 *    a person: when in doubt, no answer;
 * 4. an inbound longer than the API's 1,600 characters: `unmatched` (never run through patterns);
 * 5. no rule matches: `unmatched` (listed for a person to read);
 * 6. an answer of the matching rule follows the inbound in the thread: `answered` (by an earlier
 *    run, or by this one before a crash);
 * 7. a later inbound of the thread revokes consent (a revocation word, plain or disguised, which the
 *    API may not flag): `opt-out`, or `unmatched` when it only may be one; the answer would text a
 *    contact who said stop;
 * 8. the rule's limit per conversation, or the conversation's limit per 24 hours, is reached: `limit`;
 * 9. else `answer` with the rule's text.
 *
 * An answer "of a rule" is an outbound message whose folded text (`foldText`) equals the folded
 * answer: the API normalizes replies for GSM, which folding ignores.
 */
import type { RepliesSpec, ReplyRuleSpec } from "../campaign/model.js";
import { matchRule, type RuleMatch } from "../campaign/reply-match.js";
import { REPLY_TEXT_MAX } from "../contract/limits.js";
import type { ThreadMessage } from "../contract/resources.js";
import { foldText } from "../message/reply-words.js";
import { type RevocationFound, revocationDisguised } from "../message/revocation-disguise.js";

/** 24 hours: the window of `max_per_conversation_per_day`. */
export const DAY_MS = 86_400_000;

export type Decision =
  | { readonly kind: "missing" }
  | { readonly kind: "opt-out"; readonly reason: string }
  /** `reason`: why a person should read it beyond "no rule matched" (a possible revocation). */
  | { readonly kind: "unmatched"; readonly reason?: string }
  | { readonly kind: "answered"; readonly match: RuleMatch; readonly answerId: string }
  | {
      readonly kind: "limit";
      readonly match: RuleMatch;
      readonly limit: "rule" | "day";
      readonly count: number;
    }
  | { readonly kind: "answer"; readonly match: RuleMatch };

/** The kinds of {@link Decision}, in the order reports list them. */
export const DECISION_KINDS = ["answer", "answered", "opt-out", "unmatched", "limit", "missing"] as const;

export interface DecideInput {
  /** The thread, newest first, as the API returns it. */
  readonly thread: readonly ThreadMessage[];
  readonly inboundId: string;
  readonly replies: RepliesSpec;
  readonly revocation: readonly { readonly word: string }[];
  /** The conversation's `opted_out` (false when unknown, as for an event). */
  readonly conversationOptedOut: boolean;
  /** The event's `is_opt_out` (false when the inbound came from polling). */
  readonly eventOptOut: boolean;
  /**
   * Answers the worker's record holds in this conversation (rule name, answer id, when settled):
   * counted toward the limits with the thread's, so an answer sent before its text was edited in the
   * file still counts. Empty without a record.
   */
  readonly recorded?: readonly RecordedAnswer[];
}

/** An answer of the worker's record (answered.jsonl) in one conversation. */
export interface RecordedAnswer {
  readonly rule: string;
  readonly answerId: string;
  /** When it was settled (ISO 8601). */
  readonly at: string;
}

export function decideInbound(input: DecideInput): Decision {
  const at = input.thread.findIndex((m) => m.message_id === input.inboundId && m.direction === "inbound");
  const inbound = input.thread[at];
  if (inbound === undefined) return { kind: "missing" };
  if (input.eventOptOut) return { kind: "opt-out", reason: "is_opt_out" };
  if (input.conversationOptedOut) return { kind: "opt-out", reason: "conversation opted out" };
  const found = revocationOf(inbound, input.revocation);
  if (found?.certain === true) return { kind: "opt-out", reason: revocationReason(found) };
  if (found !== null)
    return {
      kind: "unmatched",
      reason: `may be the revocation word "${found.word}" with its letters set apart: not answered; read it, and opt the contact out if it is one`,
    };
  if (inbound.text.length > REPLY_TEXT_MAX)
    return {
      kind: "unmatched",
      reason: `longer than the API's ${REPLY_TEXT_MAX} characters: not judged by the rules`,
    };
  const match = matchRule(input.replies, inbound.text);
  if (match === null) return { kind: "unmatched" };
  const mine = (m: ThreadMessage, rule: ReplyRuleSpec) =>
    m.direction === "outbound" && foldText(m.text) === foldText(rule.answer);
  const after = input.thread.slice(0, at);
  const answer = after.find((m) => mine(m, match.rule));
  if (answer !== undefined) return { kind: "answered", match, answerId: answer.message_id };
  const revoked = revokedAfter(input.thread, at, input.revocation);
  if (revoked !== null) return revoked;
  const recorded = input.recorded ?? [];
  // Answer ids, from the thread (by text) and from the record (by rule), each counted once.
  const count = (thread: readonly ThreadMessage[], fromRecord: readonly RecordedAnswer[]) =>
    new Set([...thread.map((m) => m.message_id), ...fromRecord.map((r) => r.answerId)]).size;
  const ofRule = count(
    input.thread.filter((m) => mine(m, match.rule)),
    recorded.filter((r) => r.rule === match.rule.name),
  );
  if (ofRule >= match.rule.maxPerConversation) return { kind: "limit", match, limit: "rule", count: ofRule };
  const since = Date.parse(inbound.received_at ?? "") - DAY_MS;
  const today = count(
    input.thread.filter(
      (m, i) =>
        input.replies.rules.some((r) => mine(m, r)) &&
        (i < at || m.sent_at === null || !(Date.parse(m.sent_at) < since)),
    ),
    recorded.filter((r) => !(Date.parse(r.at) < since)),
  );
  if (today >= input.replies.maxPerConversationPerDay)
    return { kind: "limit", match, limit: "day", count: today };
  return { kind: "answer", match };
}

/** The record's answers as {@link RecordedAnswer}s (lines without an answer id are left out). */
export function recordedAnswers(
  lines: Iterable<{
    readonly t: string;
    readonly rule: string;
    readonly answer_message_id: string | null;
    readonly at: string;
  }>,
): RecordedAnswer[] {
  const out: RecordedAnswer[] = [];
  for (const l of lines)
    if (l.t === "answered" && l.answer_message_id !== null)
      out.push({ rule: l.rule, answerId: l.answer_message_id, at: l.at });
  return out;
}

/** Whether `thread` shows an answer with `text` after the inbound `inboundId` (the re-read after an unknown outcome). */
export function answerFollows(
  thread: readonly ThreadMessage[],
  inboundId: string,
  text: string,
): ThreadMessage | null {
  const at = thread.findIndex((m) => m.message_id === inboundId && m.direction === "inbound");
  if (at < 0) return null;
  const folded = foldText(text);
  return thread.slice(0, at).find((m) => m.direction === "outbound" && foldText(m.text) === folded) ?? null;
}

/**
 * Whether an inbound newer than the one at `at` (the thread newest first) revokes consent: `opt-out`
 * (or `unmatched` when it only may be a revocation), naming it; null when none does.
 */
export function revokedAfter(
  thread: readonly ThreadMessage[],
  at: number,
  revocation: readonly { readonly word: string }[],
): Extract<Decision, { readonly kind: "opt-out" } | { readonly kind: "unmatched" }> | null {
  let doubt: string | null = null;
  for (const m of thread.slice(0, Math.max(0, at))) {
    if (m.direction !== "inbound") continue;
    const found = revocationOf(m, revocation);
    if (found?.certain === true)
      return {
        kind: "opt-out",
        reason: `a later inbound (${m.message_id}) revokes: ${revocationReason(found)}`,
      };
    if (found !== null)
      doubt ??= `a later inbound (${m.message_id}) may be the revocation word "${found.word}" with its letters set apart: not answered; read it, and answer in the dashboard if it is not one`;
  }
  return doubt === null ? null : { kind: "unmatched", reason: doubt };
}

/**
 * Each message's revocation, found once per thread read (the message objects of one read) and list
 * of words: every inbound of a conversation looks at every later one, so a thread of many long
 * inbounds stays linear in its length rather than quadratic.
 */
const revocations = new WeakMap<
  ThreadMessage,
  { readonly words: readonly { readonly word: string }[]; readonly found: RevocationFound | null }
>();

function revocationOf(m: ThreadMessage, words: readonly { readonly word: string }[]): RevocationFound | null {
  const known = revocations.get(m);
  if (known !== undefined && known.words === words) return known.found;
  const found = revocationDisguised(m.text, words);
  revocations.set(m, { words, found });
  return found;
}

/** Why an inbound is an opt-out, naming how the revocation was written. */
function revocationReason(found: RevocationFound): string {
  const flagged = " (the API may not have opted the contact out)";
  switch (found.how) {
    case "plain":
      return `revocation word "${found.word}"`;
    case "emoji":
      return `the stop sign ${found.word}${flagged}`;
    case "look-alike":
      return `revocation word "${found.word}" written with look-alike characters${flagged}`;
    case "letters-apart":
      return `revocation word "${found.word}" written with its letters set apart${flagged}`;
    case "digits":
      return `revocation word "${found.word}" written with digits or symbols for letters${flagged}`;
  }
}
