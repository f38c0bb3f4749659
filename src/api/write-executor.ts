/**
 * The one write executor (design.md "Retries", principle 11): every mutating request (apply's test,
 * schedule and pause; watch's guard pause; anything later) is sent through {@link executeWrite}, so
 * there is one retry loop for writes. The client attempts a write once per call (retry-policy.ts);
 * this loop owns every resend of it, with the same Idempotency-Key each time:
 *
 * - **Attempt budget**: at most `maxAttempts` sends in total, whatever the answers.
 * - **One backoff curve** (`resendDelayMs`): doubling from `firstBackoffMs`, raised to `Retry-After`.
 * - **Retry classes** (`writeFailureOf`): 429 and 503 SEND_ENQUEUE_FAILED: nothing happened, send
 *   again; 409 with Retry-After: the same key is still running, send again (the API replays its
 *   answer once it ends); any other 5xx, a timeout, a dropped connection: the outcome is unknown,
 *   so the caller's `reread` decides (happened -> done; not happened -> send again with the same key;
 *   changed or unreadable -> stop); any other 4xx: **refused**, stop at once (one rule for every
 *   caller: the same payload is never sent again, and nothing is re-read here).
 * - A write the write port refuses (the cross-organization rule, routing/write-guard.ts), or the
 *   router sends nowhere (its organization's key failed: routing/routes.ts), makes no request: it
 *   ends `blocked` (or `stopped` after earlier sends), as a `before` refusal does; never a re-read
 *   of an outcome that cannot be open.
 * - Ctrl-C (`signal`) cuts a wait short and no new send starts; a request in flight finishes.
 * - When the budget is spent (or Ctrl-C) after an answer that left the outcome open (an unknown, or
 *   a 409 still running), the caller's `reread` is asked once more before giving up: never a blind
 *   resend, never a silent give-up.
 *
 * Pure apart from the injected `send`, `reread` and `sleep`; it never throws for an API answer.
 */
import type { Sleep } from "./rate-limiter.js";
import type { ApiError, ApiResult } from "./result.js";
import { writeFailureOf } from "./retry-policy.js";
import { isSentNowhere } from "./routing/routes.js";
import { isPortRefusal } from "./routing/write-guard.js";
import { resendDelayMs, sleepUnlessAborted } from "./write-retry.js";

/** What a re-read after an uncertain answer says of the write. */
export type RereadVerdict = "happened" | "not-happened" | "changed" | "unreadable";

/** A re-read's verdict, its words (for notes and events), and what was read (null when unreadable). */
export interface Reread<R> {
  readonly verdict: RereadVerdict;
  readonly text: string;
  readonly value: R | null;
}

/** One write: how to send it (same key every time) and how to tell from live state whether it took effect. */
export interface WriteSpec<T, R> {
  readonly send: () => Promise<ApiResult<T>>;
  /** Re-reads live state after an uncertain answer; `send` is the attempt it follows (1-based). */
  readonly reread: (send: number) => Promise<Reread<R>>;
  /** Before each attempt: why it may not be sent now (null: send). */
  readonly before?: (send: number) => string | null;
  /** Observers, in order of what happens (apply's journal events; watch ignores them). */
  readonly onSend?: (send: number) => void;
  readonly onAnswer?: (send: number, result: ApiResult<T>) => void;
  readonly onReread?: (send: number, reread: Reread<R>) => void;
  readonly onBackoff?: (send: number, delayMs: number) => void;
}

export interface WriteExecutorOptions {
  /** Sends in total, whatever the answers (at least 1). */
  readonly maxAttempts: number;
  /** The wait after the first failed send; doubles per send, raised to `Retry-After`. */
  readonly firstBackoffMs: number;
  readonly sleep: Sleep;
  /** Ctrl-C: no new send starts, waits end at once. */
  readonly signal: AbortSignal;
}

/**
 * What a write came to. Invariants: `sends` counts the requests sent (0 only for `blocked`);
 * `httpAttempts` sums the client's attempts of them; `uncertain` says some answer left open whether
 * the write took effect; `error` is the last failed answer.
 * - `accepted`: a 2xx; `ours` when it replayed a key an earlier uncertain send of this call used.
 * - `happened`, `changed`, `unreadable`: a re-read's verdict ended it.
 * - `refused`: another 4xx.
 * - `not-taken`: the budget was spent (or Ctrl-C) and no send can have taken effect.
 * - `unknown`: the budget was spent (or Ctrl-C) and a re-read showed no effect yet, but a send may still take it.
 * - `blocked` / `stopped`: `before` (or the write port) refused the first send / a later one.
 */
export type WriteOutcome<T, R> = { readonly sends: number; readonly httpAttempts: number } & (
  | {
      readonly kind: "accepted";
      readonly value: T;
      readonly status: number;
      readonly replayed: boolean;
      readonly ours: boolean;
    }
  | {
      readonly kind: "happened" | "changed" | "unreadable" | "unknown";
      readonly reread: Reread<R>;
      readonly error: ApiError;
      readonly interrupted: boolean;
    }
  | { readonly kind: "refused"; readonly error: ApiError }
  | { readonly kind: "not-taken"; readonly error: ApiError; readonly interrupted: boolean }
  | {
      readonly kind: "blocked";
      readonly refusal: string;
      /** The write port's refusal (routing/write-guard.ts), when the port refused it rather than `before`. */
      readonly refusedBy?: ApiError;
    }
  | {
      readonly kind: "stopped";
      readonly refusal: string;
      readonly uncertain: boolean;
      readonly error: ApiError | null;
    }
);

/**
 * The write port refused send `n` (the cross-organization rule), or the router sent it nowhere: no
 * request was made, so nothing
 * can have happened and nothing is re-read; like a `before` refusal, it blocks the write.
 */
function portRefused<T, R>(
  error: ApiError,
  n: number,
  so: { readonly uncertain: boolean; readonly lastError: ApiError | null; readonly httpAttempts: number },
): WriteOutcome<T, R> {
  const refusal = error.message;
  if (n === 1) return { kind: "blocked", refusal, refusedBy: error, sends: 0, httpAttempts: so.httpAttempts };
  return {
    kind: "stopped",
    refusal,
    uncertain: so.uncertain,
    error: so.lastError,
    sends: n - 1,
    httpAttempts: so.httpAttempts,
  };
}

function retryAfterOf(e: ApiError): number | null {
  return e.kind === "http" ? e.retryAfterSeconds : null;
}

/** Sends one write under the rules of the module comment. */
export async function executeWrite<T, R>(
  spec: WriteSpec<T, R>,
  options: WriteExecutorOptions,
): Promise<WriteOutcome<T, R>> {
  const max = Math.max(1, options.maxAttempts);
  let httpAttempts = 0;
  /** Some answer was an unknown outcome: a later replay of the key is this call's own effect. */
  let hadUnknown = false;
  /** Some answer (unknown, or 409 still running) leaves open whether the write took effect. */
  let uncertain = false;
  let lastError: ApiError | null = null;
  for (let n = 1; ; n++) {
    const refusal = spec.before?.(n) ?? null;
    if (refusal !== null) {
      if (n === 1) return { kind: "blocked", refusal, sends: 0, httpAttempts };
      return { kind: "stopped", refusal, uncertain, error: lastError, sends: n - 1, httpAttempts };
    }
    spec.onSend?.(n);
    const res = await spec.send();
    if (!res.ok && (isPortRefusal(res.error) || isSentNowhere(res.error)))
      return portRefused(res.error, n, { uncertain, lastError, httpAttempts });
    spec.onAnswer?.(n, res);
    if (res.ok) {
      httpAttempts += res.meta.attempts;
      return {
        kind: "accepted",
        value: res.value,
        status: res.meta.status,
        replayed: res.meta.replayed,
        ours: res.meta.replayed && hadUnknown,
        sends: n,
        httpAttempts,
      };
    }
    const e = res.error;
    lastError = e;
    httpAttempts += e.attempts;
    const failure = writeFailureOf(e);
    uncertain ||= e.outcome === "unknown";
    if (failure === "refused") return { kind: "refused", error: e, sends: n, httpAttempts };
    const last = n >= max;
    const interrupted = options.signal.aborted;
    if (failure !== "unknown" && !((last || interrupted) && uncertain)) {
      // 429 or 503 SEND_ENQUEUE_FAILED (nothing happened), or 409 with sends left to wait it out.
      if (interrupted || last) return { kind: "not-taken", error: e, interrupted, sends: n, httpAttempts };
    } else {
      hadUnknown ||= failure === "unknown";
      const reread = await spec.reread(n);
      spec.onReread?.(n, reread);
      const ended = (kind: "happened" | "changed" | "unreadable" | "unknown"): WriteOutcome<T, R> => ({
        kind,
        reread,
        error: e,
        interrupted: options.signal.aborted,
        sends: n,
        httpAttempts,
      });
      switch (reread.verdict) {
        case "happened":
        case "changed":
        case "unreadable":
          return ended(reread.verdict);
        case "not-happened":
          // An answer that was no answer (a timeout, a reset, a 5xx, a 409) may still take effect
          // later, so a re-read that shows nothing yet proves nothing: unknown when we stop here.
          if (options.signal.aborted || last) return ended("unknown");
          break;
      }
    }
    const delay = resendDelayMs(options.firstBackoffMs, n, retryAfterOf(e));
    spec.onBackoff?.(n, delay);
    await sleepUnlessAborted(options.sleep, delay, options.signal);
    if (options.signal.aborted) {
      // Ctrl-C during the wait: no new send starts. An open outcome is re-read once, never left unsaid.
      if (!uncertain) return { kind: "not-taken", error: e, interrupted: true, sends: n, httpAttempts };
      const reread = await spec.reread(n);
      spec.onReread?.(n, reread);
      const kind = reread.verdict === "not-happened" ? "unknown" : reread.verdict;
      return { kind, reread, error: e, interrupted: true, sends: n, httpAttempts };
    }
  }
}
