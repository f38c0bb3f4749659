/**
 * The contract's delivery signature: `X-Webhook-Signature: sha256=<hex>`, the HMAC-SHA256 of the
 * exact raw body bytes keyed with the endpoint's secret. Checked against every configured secret
 * (rotation: the old and the new one at once), each comparison in constant time
 * (`crypto.timingSafeEqual` on the 32 digest bytes), and without stopping at the first match, so
 * the time taken says nothing about which secret matched or how much of a guess was right.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookSecret } from "./types.js";

/** `sha256=` and 64 hex digits (the contract writes lower case; upper case means the same bytes). */
const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/** The signature header for `body` under `secret` (what a sender writes; used by tests and benchmarks). */
export function signatureOf(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** How a signature header compares with the body: which secret signed it, or why none did. */
export type SignatureCheck =
  | { readonly ok: true; readonly secret: WebhookSecret }
  | { readonly ok: false; readonly reason: "missing-signature" | "malformed-signature" | "bad-signature" };

/**
 * Checks `header` against the HMAC of `body` under each of `secrets`. Invariant: every secret is
 * compared (no early exit), each in constant time; the first matching secret, in the order given,
 * is the one reported.
 */
export function checkSignature(
  header: string | undefined,
  body: Buffer,
  secrets: readonly WebhookSecret[],
): SignatureCheck {
  if (header === undefined || header.trim() === "") return { ok: false, reason: "missing-signature" };
  const hex = SIGNATURE.exec(header.trim())?.[1];
  if (hex === undefined) return { ok: false, reason: "malformed-signature" };
  const given = Buffer.from(hex, "hex");
  let matched: WebhookSecret | undefined;
  for (const secret of secrets) {
    const expected = createHmac("sha256", secret.value).update(body).digest();
    if (timingSafeEqual(expected, given) && matched === undefined) matched = secret;
  }
  return matched === undefined ? { ok: false, reason: "bad-signature" } : { ok: true, secret: matched };
}
