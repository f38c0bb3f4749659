/**
 * Deterministic Idempotency-Key derivation (design.md, "Idempotency keys"). Pure.
 */
import { createHash } from "node:crypto";
import canonicalizeModule from "canonicalize";
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN } from "../contract/limits.js";

type Canonicalize = (input: unknown) => string | undefined;
// canonicalize is CommonJS (`module.exports = fn`) with an ESM-style `export default` typing, so under
// NodeNext TypeScript sees the module object; at runtime the default import is the function itself.
const mod = canonicalizeModule as unknown as Canonicalize | { default: Canonicalize };
const canonicalize: Canonicalize = typeof mod === "function" ? mod : mod.default;

/** Prefix naming the derivation scheme, so a future scheme cannot collide with this one. */
export const IDEMPOTENCY_KEY_PREFIX = "cc1-";

/**
 * What an action does, and the live version it was planned from. `based_on` is the project's
 * `updated_at` (null where there is no live version, as for email batches); `project_id` is null for
 * requests that do not target a project (replies, email batches key on their own ids in `body`).
 */
export interface IdempotencyInput {
  /**
   * For a project action, the project's own `organization_id` (from `GET /projects/{id}`), never
   * the key's: the same action gets the same key in every mode of apply, whichever key runs it.
   */
  readonly org: string;
  readonly project_id: string | null;
  readonly action: string;
  readonly body: unknown;
  readonly based_on: string | null;
}

/**
 * `"cc1-" + base64url(sha256(RFC 8785 canonical JSON of the input))`. Invariants: equal inputs (in
 * any key order) give equal keys; the key is 47 printable ASCII characters, within the contract's 16
 * to 200. Throws only on a value JSON cannot represent (a bug in the caller).
 */
export function idempotencyKey(input: IdempotencyInput): string {
  const canonical = canonicalize({
    org: input.org,
    project_id: input.project_id,
    action: input.action,
    body: input.body,
    based_on: input.based_on,
  });
  if (canonical === undefined) throw new TypeError("idempotencyKey: input is not JSON-serializable");
  return IDEMPOTENCY_KEY_PREFIX + createHash("sha256").update(canonical, "utf8").digest("base64url");
}

/** True when `key` satisfies the contract: 16 to 200 printable ASCII characters (0x20 to 0x7e). */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= IDEMPOTENCY_KEY_MIN && key.length <= IDEMPOTENCY_KEY_MAX && /^[\x20-\x7e]+$/.test(key);
}
