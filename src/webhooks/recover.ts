/**
 * An event of the record as the listener shows it again on start (one a run flushed but did not
 * live to print): verified anew against the secrets at its own timestamp (so its age does not
 * matter), which also names the secret that signed it. Pure.
 */
import type { RecordedEvent } from "./record.js";
import type { VerifiedEvent, WebhookSecret } from "./types.js";
import { verifyDelivery } from "./verify.js";

/** The name shown when no secret of this run verifies a recovered event (the secret was rotated out). */
export const EARLIER_SECRET = "(a secret of an earlier run)";

export function recoveredEvent(recorded: RecordedEvent, secrets: readonly WebhookSecret[]): VerifiedEvent {
  const body = Buffer.from(recorded.bodyBase64, "base64");
  const delivery = { headers: recorded.headers, body };
  const stamp = Number(recorded.headers["x-timestamp"]);
  const at = Number.isFinite(stamp) ? stamp * 1000 : Date.parse(recorded.entry.at);
  const verdict = verifyDelivery(delivery, { secrets, nowMs: at });
  if (verdict.ok) return verdict.event;
  let payload: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    if (value !== null && typeof value === "object" && !Array.isArray(value))
      payload = value as Record<string, unknown>;
  } catch {
    // an older record without the body: no payload to show
  }
  return {
    eventId: recorded.entry.event_id,
    kind: recorded.entry.kind,
    timestampMs: Number.isFinite(at) ? at : 0,
    secretName: EARLIER_SECRET,
    bodyKey: recorded.entry.body_key,
    payload,
    delivery,
  };
}
