/**
 * Idempotency-Key handling for every POST under /v1 (contract Limits): 16 to 200 printable ASCII
 * characters; 24-hour window on the virtual clock; scoped per endpoint (method, route template and
 * path parameters) and organization. A replay returns the stored status and body with
 * `X-Idempotent-Replayed: true`; the same key while the first request runs is 409 with
 * Retry-After; the same key with a different body (canonical JSON) is 422 IDEMPOTENCY_MISMATCH.
 * Responses with status < 500 are stored (successes and deterministic 4xx); a 5xx is not, and
 * releases the key so the retry runs again.
 */
import { createHash } from "node:crypto";
import canonicalizeModule from "canonicalize";
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN, IDEMPOTENCY_WINDOW_MS } from "../../contract/limits.js";
import type { Store } from "../state/store.js";
import type { IdempotencyRecord } from "../state/world.js";
import { type ApiResponse, invalid, standardError } from "./responses.js";

/** RFC 8785 canonical JSON (the CJS module's export is the function itself under Node ESM). */
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

export type IdempotencyStart =
  | { readonly kind: "proceed"; readonly recordKey: string }
  | { readonly kind: "respond"; readonly response: ApiResponse; readonly replayed: boolean };

export function checkIdempotencyKey(value: string): ApiResponse | undefined {
  if (
    value.length < IDEMPOTENCY_KEY_MIN ||
    value.length > IDEMPOTENCY_KEY_MAX ||
    !PRINTABLE_ASCII.test(value)
  )
    return invalid(
      ["Idempotency-Key"],
      `Idempotency-Key must be ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters`,
      "invalid_string",
    );
  return undefined;
}

export interface IdempotencyScope {
  readonly organizationId: string;
  readonly method: string;
  readonly template: string;
  readonly params: Readonly<Record<string, string>>;
}

export function beginIdempotent(
  store: Store,
  key: string,
  scope: IdempotencyScope,
  body: unknown,
  nowMs: number,
): IdempotencyStart {
  const scopeText = `${scope.organizationId} ${scope.method} ${scope.template} ${canonicalize(scope.params) ?? ""}`;
  const recordKey = `${scopeText}\n${key}`;
  const fingerprint = createHash("sha256")
    .update(canonicalize(body ?? null) ?? "null")
    .digest("hex");
  return store.mutate((world) => {
    sweepNow(world.idempotency, nowMs);
    const found = world.idempotency[recordKey];
    const existing = found !== undefined && expired(found, nowMs) ? undefined : found;
    if (existing !== undefined) {
      if (existing.fingerprint !== fingerprint)
        return respond(
          standardError(
            422,
            "IDEMPOTENCY_MISMATCH",
            "Idempotency-Key was already used with a different request body",
          ),
        );
      if (existing.state === "running")
        return respond(
          standardError(
            409,
            "IDEMPOTENCY_KEY_IN_USE",
            "A request with this Idempotency-Key is still being processed",
            undefined,
            {
              "retry-after": "1",
            },
          ),
        );
      return {
        kind: "respond",
        replayed: true,
        response: {
          status: existing.status,
          body: existing.body,
          headers: { "x-idempotent-replayed": "true" },
        },
      };
    }
    noteInsert(world.idempotency);
    world.idempotency[recordKey] = {
      scope: scopeText,
      fingerprint,
      created_at_ms: nowMs,
      state: "running",
      status: 0,
      body: null,
    };
    return { kind: "proceed", recordKey };
  });
}

/** Stores a finished response for replay (status < 500) or releases the key (5xx). */
export function finishIdempotent(store: Store, recordKey: string, response: ApiResponse): void {
  store.mutate((world) => {
    const record = world.idempotency[recordKey];
    if (record === undefined) return;
    if (response.status >= 500) delete world.idempotency[recordKey];
    else
      world.idempotency[recordKey] = {
        ...record,
        state: "done",
        status: response.status,
        body: response.body,
      };
  });
}

/** A stored response whose 24 hours have passed: as if absent (running records never expire). */
function expired(record: IdempotencyRecord, nowMs: number): boolean {
  return record.state === "done" && record.created_at_ms + IDEMPOTENCY_WINDOW_MS <= nowMs;
}

/**
 * When to sweep expired records out of a world's idempotency map: once as many records were added
 * since the last sweep as that sweep left (at least SWEEP_MIN), so the O(records) sweep costs O(1)
 * per request amortized and the map holds at most about twice its live records. Lookups treat an
 * expired record as absent, so when the sweep runs never changes an answer. Kept beside the map
 * (not in the persisted world): a world loaded or reset starts with a fresh count.
 */
const SWEEP_MIN = 1024;
const sweeps = new WeakMap<object, { added: number; kept: number }>();

function noteInsert(records: Record<string, IdempotencyRecord>): void {
  const state = sweeps.get(records) ?? { added: 0, kept: 0 };
  state.added += 1;
  sweeps.set(records, state);
}

function sweepNow(records: Record<string, IdempotencyRecord>, nowMs: number): void {
  const state = sweeps.get(records) ?? { added: 0, kept: 0 };
  sweeps.set(records, state);
  if (state.added < Math.max(SWEEP_MIN, state.kept)) return;
  let kept = 0;
  for (const [k, r] of Object.entries(records)) {
    if (expired(r, nowMs)) delete records[k];
    else kept += 1;
  }
  state.added = 0;
  state.kept = kept;
}

function respond(response: ApiResponse): IdempotencyStart {
  return { kind: "respond", response, replayed: false };
}
