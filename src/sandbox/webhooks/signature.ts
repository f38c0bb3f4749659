/** The contract's webhook signature: `sha256=` + lower-case hex HMAC-SHA256 of the raw body bytes. */
import { createHmac } from "node:crypto";

export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}
