/**
 * The outbox's rule (pure): after an attempt to forward an event, is it done, tried again (when),
 * or moved to the dead-letter file (why)? Backoff doubles from `baseDelayMs` up to `maxDelayMs`; a
 * `Retry-After` from the handler is honoured (the later of the two); no attempt is scheduled past
 * the event's age limit: the last one runs at that limit, and an event goes to dead-letter only when
 * its attempt limit or its age limit has passed.
 */

/** The limits of the outbox. Invariant: all positive; `baseDelayMs <= maxDelayMs`. */
export interface ForwardLimits {
  /** Attempts after which a failing event goes to dead-letter (`--forward-max-attempts`). */
  readonly maxAttempts: number;
  /** Age (since the event was taken on) after which a failing event goes to dead-letter (`--forward-max-age`). */
  readonly maxAgeMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** 50 attempts or 24 hours, backoff from 1 s doubling to at most 5 minutes. */
export const DEFAULT_FORWARD_LIMITS: ForwardLimits = {
  maxAttempts: 50,
  maxAgeMs: 24 * 3_600_000,
  baseDelayMs: 1_000,
  maxDelayMs: 300_000,
};

export type AfterAttempt =
  | { readonly kind: "done" }
  | { readonly kind: "retry"; readonly nextAt: number }
  | { readonly kind: "dead"; readonly reason: "attempts" | "age" };

/**
 * `attempts` counts the attempt just made (1 for the first); `ok` whether the handler answered 2xx;
 * `retryAfterMs` the handler's Retry-After (null when absent).
 */
export function afterAttempt(input: {
  readonly ok: boolean;
  readonly attempts: number;
  readonly retryAfterMs: number | null;
  readonly nowMs: number;
  readonly acceptedAtMs: number;
  readonly limits: ForwardLimits;
}): AfterAttempt {
  const { ok, attempts, retryAfterMs, nowMs, acceptedAtMs, limits } = input;
  if (ok) return { kind: "done" };
  if (attempts >= limits.maxAttempts) return { kind: "dead", reason: "attempts" };
  const deadline = acceptedAtMs + limits.maxAgeMs;
  if (nowMs >= deadline) return { kind: "dead", reason: "age" };
  const backoff = Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** Math.min(attempts - 1, 30));
  const delay = Math.max(backoff, retryAfterMs ?? 0);
  return { kind: "retry", nextAt: Math.min(nowMs + delay, deadline) };
}
