/**
 * Verifies one delivery, in this order: the signature over the raw body bytes (before anything of
 * the body is read or parsed), the timestamp against the injected clock, the event id and type
 * headers, then the body (a JSON object) and whether the unsigned X-Event-Type agrees with what the
 * signed body shows. Pure apart from hashing; dedupe is the receiver's next step (receiver.ts).
 */
import { formatDuration } from "../text/duration.js";
import { bodyKeyOf, kindOfBody } from "./body-key.js";
import { checkSignature } from "./signature.js";
import { checkTimestamp, TIMESTAMP_TOLERANCE_MS } from "./timestamp.js";
import {
  type Delivery,
  nonEmpty,
  type Rejection,
  reject,
  type VerifiedEvent,
  type WebhookSecret,
} from "./types.js";

/** What a delivery is checked against. Invariant: `secrets` is not empty. */
export interface VerifyOptions {
  readonly secrets: readonly WebhookSecret[];
  /** The instant the delivery is judged at (ms since the epoch), from an injected clock. */
  readonly nowMs: number;
  readonly toleranceMs?: number;
}

export type Verdict =
  | { readonly ok: true; readonly event: VerifiedEvent }
  | { readonly ok: false; readonly rejection: Rejection };

const BODY_HINT =
  "The signature covers the exact bytes sent: reformatting the JSON, or a final newline an editor added, breaks it";

export function verifyDelivery(delivery: Delivery, options: VerifyOptions): Verdict {
  const { headers, body } = delivery;
  const no = (rejection: Rejection): Verdict => ({ ok: false, rejection });
  const signature = checkSignature(headers["x-webhook-signature"], body, options.secrets);
  if (!signature.ok) {
    switch (signature.reason) {
      case "missing-signature":
        return no(
          reject(
            "missing-signature",
            headers,
            "The delivery has no X-Webhook-Signature header",
            "Every delivery from the API is signed: this request did not come from it",
          ),
        );
      case "malformed-signature":
        return no(
          reject(
            "malformed-signature",
            headers,
            "X-Webhook-Signature is not sha256= followed by 64 hex digits",
          ),
        );
      case "bad-signature":
        return no(
          reject(
            "bad-signature",
            headers,
            `The signature matches none of the secrets (${options.secrets.map((s) => s.name).join(", ")})`,
            `Check the endpoint's signing secret in the environment variable. ${BODY_HINT}`,
          ),
        );
    }
  }
  const toleranceMs = options.toleranceMs ?? TIMESTAMP_TOLERANCE_MS;
  const timestamp = checkTimestamp(headers["x-timestamp"], options.nowMs, toleranceMs);
  if (!timestamp.ok) {
    switch (timestamp.reason) {
      case "missing-timestamp":
        return no(reject("missing-timestamp", headers, "The delivery has no X-Timestamp header"));
      case "malformed-timestamp":
        return no(
          reject(
            "malformed-timestamp",
            headers,
            `X-Timestamp ${shown(headers["x-timestamp"])} is not a Unix time in whole seconds`,
          ),
        );
      case "stale-timestamp": {
        const off = timestamp.timestampMs - options.nowMs;
        return no(
          reject(
            "stale-timestamp",
            headers,
            `X-Timestamp ${new Date(timestamp.timestampMs).toISOString()} is ${formatDuration(Math.abs(off))} ${off < 0 ? "before" : "after"} the listener's clock (${new Date(options.nowMs).toISOString()}); more than ${formatDuration(toleranceMs)} either way is refused`,
            "A late replay of a captured delivery, or a clock that is off: check this machine's clock",
          ),
        );
      }
    }
  }
  const eventId = nonEmpty(headers["x-event-id"]);
  if (eventId === null)
    return no(reject("missing-event-id", headers, "The signed delivery has no X-Event-ID header"));
  const kind = nonEmpty(headers["x-event-type"]);
  if (kind === null)
    return no(reject("missing-event-type", headers, "The signed delivery has no X-Event-Type header"));
  const payload = parseObject(body);
  if (payload === undefined) return no(reject("bad-body", headers, "The signed body is not a JSON object"));
  const bodyKind = kindOfBody(payload);
  if (bodyKind !== null && bodyKind !== kind)
    return no(
      reject(
        "type-mismatch",
        headers,
        `X-Event-Type says ${shown(kind)} but the signed body is a ${bodyKind} event`,
        "X-Event-Type is not signed: it was changed on the way",
      ),
    );
  return {
    ok: true,
    event: {
      eventId,
      kind,
      timestampMs: timestamp.timestampMs,
      secretName: signature.secret.name,
      bodyKey: bodyKeyOf(payload, body),
      payload,
      delivery,
    },
  };
}

/** The body as a JSON object, or undefined when it is not one. */
function parseObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** An unsigned header value as a message shows it: quoted, escaped, at most 60 characters. */
function shown(value: string | undefined): string {
  const text = value ?? "";
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}
