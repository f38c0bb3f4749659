/**
 * The shapes of the webhook listener's core: a delivery as received, the secrets it is checked
 * against, a verified event, and a refusal with the HTTP status the listener answers.
 */
import type { WebhooksCode } from "../diagnostics/codes/webhooks.js";
import type { Diagnostic, Severity } from "../diagnostics/diagnostic.js";

/**
 * A signing secret. Invariant: `value` is never printed, logged or written anywhere; `name` (the
 * environment variable it was read from) is what output shows, e.g. which secret signed an event
 * during a rotation.
 */
export interface WebhookSecret {
  readonly name: string;
  readonly value: string;
}

/**
 * One delivery as it arrived. Invariants: header names are lower case (as node:http gives them);
 * `body` holds the exact raw bytes, never re-encoded, since the signature covers exactly those.
 */
export interface Delivery {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
}

/**
 * A delivery that passed every check. Invariants: the signature over `body` matched the secret
 * named `secretName`; `timestampMs` was within the tolerance of the clock that judged it; `payload`
 * is `body` parsed (a JSON object); `bodyKey` depends on the signed bytes only (see body-key.ts);
 * `kind` is X-Event-Type, equal to the kind the body shows when it shows one.
 */
export interface VerifiedEvent {
  readonly eventId: string;
  readonly kind: string;
  readonly timestampMs: number;
  readonly secretName: string;
  readonly bodyKey: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly delivery: Delivery;
}

/** Why a delivery was refused before any work: the code's last part (`webhooks.<reason>`). */
export type RejectReason =
  | "missing-signature"
  | "malformed-signature"
  | "bad-signature"
  | "missing-timestamp"
  | "malformed-timestamp"
  | "stale-timestamp"
  | "missing-event-id"
  | "missing-event-type"
  | "bad-body"
  | "type-mismatch"
  | "duplicate-event"
  | "replayed-body"
  | "body-too-large"
  | "method-not-allowed"
  | "queue-full"
  | "not-recorded";

/**
 * A refused delivery. Invariants: `diagnostic.code` is `webhooks.<reason>`; `status` is what the
 * listener answers (see {@link REFUSALS}); `eventId` and `kind` are the unsigned headers as sent
 * (null when absent), for display only.
 */
export interface Rejection {
  readonly reason: RejectReason;
  readonly status: number;
  readonly eventId: string | null;
  readonly kind: string | null;
  readonly diagnostic: Diagnostic;
}

/**
 * What each refusal answers and how it is reported, one row per reason (a `Record`, so a new reason
 * cannot be left out). A retry of an event already handled gets 200, so the sender stops retrying
 * (it is handled, just not twice); an unsigned or invalid delivery gets 401, as the contract says.
 */
export const REFUSALS: Readonly<
  Record<RejectReason, { readonly code: WebhooksCode; readonly status: number; readonly severity: Severity }>
> = {
  "missing-signature": { code: "webhooks.missing-signature", status: 401, severity: "error" },
  "malformed-signature": { code: "webhooks.malformed-signature", status: 401, severity: "error" },
  "bad-signature": { code: "webhooks.bad-signature", status: 401, severity: "error" },
  "missing-timestamp": { code: "webhooks.missing-timestamp", status: 401, severity: "error" },
  "malformed-timestamp": { code: "webhooks.malformed-timestamp", status: 401, severity: "error" },
  "stale-timestamp": { code: "webhooks.stale-timestamp", status: 401, severity: "error" },
  "missing-event-id": { code: "webhooks.missing-event-id", status: 400, severity: "error" },
  "missing-event-type": { code: "webhooks.missing-event-type", status: 400, severity: "error" },
  "bad-body": { code: "webhooks.bad-body", status: 400, severity: "error" },
  "type-mismatch": { code: "webhooks.type-mismatch", status: 400, severity: "error" },
  "duplicate-event": { code: "webhooks.duplicate-event", status: 200, severity: "warning" },
  "replayed-body": { code: "webhooks.replayed-body", status: 409, severity: "error" },
  "body-too-large": { code: "webhooks.body-too-large", status: 413, severity: "error" },
  "method-not-allowed": { code: "webhooks.method-not-allowed", status: 405, severity: "error" },
  "queue-full": { code: "webhooks.queue-full", status: 503, severity: "error" },
  "not-recorded": { code: "webhooks.not-recorded", status: 503, severity: "error" },
};

/** Builds a {@link Rejection} from the delivery's unsigned headers. */
export function reject(
  reason: RejectReason,
  headers: Readonly<Record<string, string | undefined>>,
  message: string,
  hint?: string,
): Rejection {
  const { code, status, severity } = REFUSALS[reason];
  const diagnostic: Diagnostic = {
    severity,
    code,
    message,
    ...(hint === undefined ? {} : { hint }),
  };
  return {
    reason,
    status,
    eventId: nonEmpty(headers["x-event-id"]),
    kind: nonEmpty(headers["x-event-type"]),
    diagnostic,
  };
}

/** The header's value, or null when it is absent or blank. */
export function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value.trim() === "" ? null : value;
}
