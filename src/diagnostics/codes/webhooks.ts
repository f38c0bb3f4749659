/**
 * Diagnostic codes of `campaignctl webhooks listen` and `webhooks verify`: why a delivery was
 * refused (with the HTTP status the listener answers), and the listener's own problems. Each entry:
 * a stable code and what it means.
 */
export const WEBHOOKS_CODES = {
  "webhooks.missing-signature": "a delivery has no X-Webhook-Signature header (answered 401)",
  "webhooks.malformed-signature":
    "X-Webhook-Signature is not `sha256=` followed by 64 hex digits (answered 401)",
  "webhooks.bad-signature":
    "the signature matches none of the secrets: the body was changed, or it was signed with another secret (answered 401)",
  "webhooks.missing-timestamp": "a delivery has no X-Timestamp header (answered 401)",
  "webhooks.malformed-timestamp": "X-Timestamp is not a Unix time in whole seconds (answered 401)",
  "webhooks.stale-timestamp":
    "X-Timestamp is more than 5 minutes before or after the listener's clock: a late replay (answered 401)",
  "webhooks.missing-event-id": "a signed delivery has no X-Event-ID header (answered 400)",
  "webhooks.missing-event-type": "a signed delivery has no X-Event-Type header (answered 400)",
  "webhooks.bad-body": "the signed body is not a JSON object (answered 400)",
  "webhooks.type-mismatch":
    "X-Event-Type (not signed) names another kind than the signed body shows (answered 400)",
  "webhooks.duplicate-event":
    "an event id already handled: a retried delivery (answered 200 so the sender stops, not handled again)",
  "webhooks.replayed-body":
    "a signed body already handled under another event id: a replay with a fresh X-Event-ID (answered 409, not handled again)",
  "webhooks.body-too-large": "a delivery's body is over the listener's 1 MiB limit (answered 413)",
  "webhooks.method-not-allowed": "a request other than POST reached the listener (answered 405)",
  "webhooks.queue-full":
    "the listener's work queue is full (answered 503, not remembered, so the sender retries)",
  "webhooks.forward-failed":
    "the handler behind --forward-to did not answer 2xx (its status, a refused connection or a timeout)",
  "webhooks.no-secret":
    "a --secret-env variable is not set, or empty, in the environment; or --secret-env was given something that is not a variable's name (perhaps the secret itself), which is not echoed",
  "webhooks.unknown-event-kind": "--events names a kind the API contract does not have",
  "webhooks.bad-forward-url": "--forward-to is not an absolute http(s) URL without credentials",
  "webhooks.insecure-forward-url":
    "--forward-to uses plain http to a host that is not loopback (events carry contacts' phone numbers)",
  "webhooks.forward-flag-alone":
    "--forward-max-attempts or --forward-max-age without --forward-to: there is no outbox for it to limit",
  "webhooks.listen-failed": "the listener could not listen on its host and port",
  "webhooks.state-locked":
    "another running listener holds the record under --state (its process id is in listener.pid)",
  "webhooks.state-unusable": "the dedupe record under --state could not be read or written",
  "webhooks.not-recorded":
    "the event could not be written and flushed to the record on disk (answered 503, not acknowledged, so the sender retries)",
  "webhooks.record-torn":
    "the record's last line was cut short by a crash (never acknowledged): cut off on start",
  "webhooks.record-skipped": "lines of the record that are not understood were skipped on start",
  "webhooks.forward-retry":
    "the handler behind --forward-to did not answer 2xx; the event stays in the outbox and is tried again later",
  "webhooks.dead-letter":
    "an event reached --forward-max-attempts or --forward-max-age without a 2xx: moved to dead-letter.jsonl",
  "webhooks.dead-letter-unwritten":
    "an event past its forward limits could not be written to the dead-letter file: it stays in the outbox, tried again later",
  "webhooks.bad-headers-file":
    "`webhooks verify --headers` is neither a JSON object of strings nor `Name: value` lines",
} as const;

export type WebhooksCode = keyof typeof WEBHOOKS_CODES;
