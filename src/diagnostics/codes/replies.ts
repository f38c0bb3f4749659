/**
 * Diagnostic codes of reply rules (`replies:` in campaign files, checked by validate) and of
 * `campaignctl replies plan` and `replies run`. Each entry: a stable code and what it means.
 */
export const REPLIES_CODES = {
  "replies.rule-matches-opt-out":
    "a reply rule's keyword or pattern could match a revocation word (STOP, CANCEL, NO MÁS, ...): opt-outs are never answered",
  "replies.rule-needs-one-match":
    "a reply rule has both `keywords` and `pattern`, or neither: it needs exactly one",
  "replies.pattern-invalid": "a reply rule's `pattern` is not a valid regular expression (RE2 syntax)",
  "replies.pattern-unsupported":
    "a reply rule's `pattern` uses what the linear-time engine (RE2) cannot run: a look-ahead or look-behind, a back-reference, a JavaScript-only escape; refused at the construct, never run",
  "replies.pattern-too-large":
    "a reply rule's `pattern` compiles to more RE2 instructions than a project's patterns may take together (200): judging one inbound could take too long",
  "replies.keyword-empty": "a reply rule's keyword has no letter or digit, so it can never match",
  "replies.rule-name-repeated": "two reply rules of one project have the same `name`",
  "replies.rule-unreachable":
    "a reply rule can never answer: every keyword of it is a keyword of an earlier rule, which matches first",
  "replies.answer-has-merge-tag":
    "a reply rule's answer has a merge tag (`{{...}}`): answers go out as written, nothing is merged",
  "replies.answer-too-long": "a reply rule's answer is over the API's 1,600 characters",
  "replies.answer-segments": "a reply rule's answer takes more than one SMS segment (each is billed)",
  "replies.no-rules": "none of the campaign files' projects has reply rules: there is nothing to answer with",
  "replies.pass-not-due":
    "`replies run --once` made no GET /conversations pass: the last one started less than a minute ago (of the API's clock); run it again later",
  "replies.poll-failed": "GET /conversations or a thread read failed: the pass stops and is retried later",
  "replies.cursor-held":
    "some reply projects' conversations cannot be listed nor answered (their organization's key could not be used): the passes settle what they list but keep the cursor where it was, so that those inbounds are read once the key answers (said once a run)",
  "replies.answer-refused":
    "the API refused an answer with a 4xx (opted out, number released, project deleted, not found): recorded, never retried",
  "replies.answer-unknown":
    "an answer's outcome is still unknown after its attempts (the thread did not show it): it is tried again on the next pass, with the same key",
  "replies.key-refused":
    "the API refused an answer for the key (401: revoked or expired; 403: a missing scope, another organization's): nothing was sent nor recorded; the worker stops, and a run with a key that may answer answers that inbound",
  "replies.insufficient-balance":
    "402 INSUFFICIENT_BALANCE: the organization cannot pay for answers; the worker stops",
  "replies.state-locked":
    "another `replies run` holds the state directory (its process id is in replies.pid)",
  "replies.state-unusable": "the state directory of `replies run` cannot be read or written",
  "replies.record-torn":
    "the last line of the answered record was cut short by a kill: cut off (that answer is settled again by reading its thread)",
  "replies.record-missing":
    "`status --replies-state DIR` or `replies plan --state DIR`: the directory has no answered record of `replies run` (answered.jsonl): status shows no replies, the plan judges by the threads alone",
  "replies.since-unused":
    "`replies run --since` with a poll cursor already on disk: the cursor says where the pass reads from, --since only sets the first pass's window",
} as const;

export type RepliesCode = keyof typeof REPLIES_CODES;
