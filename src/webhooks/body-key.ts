/**
 * What the signed body says about itself: its kind, and a key that identifies the event from the
 * signed bytes alone. The contract signs only the body; X-Event-ID, X-Event-Type and X-Timestamp
 * are not signed, so a captured delivery replayed with a fresh event id and timestamp passes the
 * signature and the clock. The body key catches it: it is read from fields of the signed body, so a
 * sender cannot change it without breaking the signature.
 *
 * The key (documented in docs/webhooks.md):
 * - `message.sent`, `message.delivered`, `message.failed`: `<kind>:<message_id>`, the kind read from
 *   the body's `status` (`sent`, `delivered`, `failed`). One message has one event of each kind.
 * - `message.replied`: `message.replied:<message_id>` (the inbound message's id; the body has
 *   `is_opt_out` and no `status`). One inbound message has one event.
 * - Any other body (`link.clicked`, whose fields the contract does not show, or a body without a
 *   `message_id`): `sha256:<hex digest of the raw body bytes>`, the exact signed bytes.
 */
import { createHash } from "node:crypto";

/** The kind a message event's `status` names. */
const KIND_OF_STATUS: ReadonlyMap<string, string> = new Map([
  ["sent", "message.sent"],
  ["delivered", "message.delivered"],
  ["failed", "message.failed"],
]);

/**
 * The event kind the signed body shows, or null when it shows none: a message event by its
 * `status`, a reply by its boolean `is_opt_out` without a `status`.
 */
export function kindOfBody(payload: Readonly<Record<string, unknown>>): string | null {
  const status = payload.status;
  if (typeof status === "string") return KIND_OF_STATUS.get(status) ?? null;
  if (typeof payload.is_opt_out === "boolean") return "message.replied";
  return null;
}

/**
 * The event's key from the signed body. Invariant: a function of `raw` alone (`payload` is `raw`
 * parsed): two deliveries with the same body bytes always get the same key, whatever their headers.
 */
export function bodyKeyOf(payload: Readonly<Record<string, unknown>>, raw: Buffer): string {
  const kind = kindOfBody(payload);
  const messageId = payload.message_id;
  if (kind !== null && typeof messageId === "string" && messageId !== "") return `${kind}:${messageId}`;
  return `sha256:${createHash("sha256").update(raw).digest("hex")}`;
}
