/**
 * One action, sent and settled. This is the one retry layer of writes: the client attempts a write
 * once per call (src/api/retry-policy.ts), so every attempt of the action's request is one send
 * here, counted against `maxSends` (N, whatever the answers were), and the waits between them
 * follow one curve (`resendDelayMs`: doubling from `backoffMs`, raised to the answer's
 * `Retry-After`). After each answer (`writeFailureOf`):
 * - 2xx: done (or replayed);
 * - 429 or 503 SEND_ENQUEUE_FAILED: nothing happened; send again with the same key;
 * - 409 with Retry-After: the same key is still running; send again with the same key (the API
 *   answers 409 until it ends, then replays its answer);
 * - any other 5xx, a timeout, a dropped connection: the outcome is unknown; re-read the project and
 *   check the effect (`effect-check.ts`): happened -> done with the resolution, not happened ->
 *   send again with the same key, changed -> fail and send nothing more;
 * - any other 4xx: fail.
 * When the N attempts are spent: failed when none of them can have taken effect, else the project
 * is re-read once more (a 409's request may have ended) and the action is done or unknown.
 */
import { type ApiError, type ApiResult, type Clock, type Sleep, writeFailureOf } from "../api/index.js";
import type { PauseRequest, Project, ScheduleRequest, TestRequest } from "../contract/resources.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import type { Action, LiveBasis } from "../plan/types.js";
import { apiActionError, ownActionError } from "./action-error.js";
import { checkEffect } from "./effect-check.js";
import { scheduleEffectOf, scheduleEffectOfProject, testMessagesOf } from "./effects.js";
import type { ApplyEventListener, EffectVerdict } from "./events.js";
import type { ApplyPort } from "./port.js";
import type { ActionError, ActionResult } from "./types.js";
import { isoAt, resendDelayMs, sleepUnlessAborted } from "./waits.js";

/** An action ready to send: its body and key, and the live state it is conditional on. */
export interface Sendable {
  readonly action: Action;
  readonly body: unknown;
  readonly key: string;
  readonly basis: LiveBasis;
  /**
   * Re-judges the action on the clock right before each send (the schedule's `at` may have passed
   * since the round judged it); a refusal stops the action before that send.
   */
  readonly recheck?: (now: Date) => Refusal | null;
}

/** Why an action may not be sent now: a diagnostic code and its message. */
export interface Refusal {
  readonly code: DiagnosticCode;
  readonly message: string;
}

export interface PerformDeps {
  readonly port: ApplyPort;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly signal: AbortSignal;
  readonly emit: ApplyEventListener;
  /** N: attempts of one action's request in total, whatever their answers (at least 1). */
  readonly maxSends: number;
  /** The wait after the first failed attempt; it doubles per attempt (see `resendDelayMs`). */
  readonly backoffMs: number;
}

function send(port: ApplyPort, action: Action, body: unknown, key: string): Promise<ApiResult<unknown>> {
  switch (action.kind) {
    case "test":
      return port.testProject(action.project_id, body as TestRequest, key);
    case "schedule":
      return port.scheduleProject(action.project_id, body as ScheduleRequest, key);
    case "pause":
      return port.pauseProject(action.project_id, body as PauseRequest, key);
  }
}

function errorOf(e: ApiError): ActionError {
  return apiActionError(e);
}

function retryAfterOf(e: ApiError): number | null {
  return e.kind === "http" ? e.retryAfterSeconds : null;
}

export async function performAction(s: Sendable, d: PerformDeps): Promise<ActionResult> {
  const { action } = s;
  const now = () => isoAt(d.clock.now());
  const startedAt = now();
  const notes: string[] = [];
  let attempts = 0;
  /** An answer of this run was an unknown outcome: a later replay of the key is this run's effect. */
  let hadUnknown = false;
  /** Some answer so far (unknown, or 409 still running) leaves open whether the action took effect. */
  let uncertain = false;
  const base = {
    id: action.id,
    address: action.address,
    project_id: action.project_id,
    kind: action.kind,
    idempotency_key: s.key,
    started_at: startedAt,
  };
  const end = (fields: Partial<ActionResult> & Pick<ActionResult, "status" | "reason">): ActionResult => ({
    ...base,
    attempts,
    resolution: notes.length === 0 ? null : notes.join("; "),
    status_after: null,
    test_messages: [],
    schedule: null,
    error: null,
    finished_at: now(),
    ...fields,
  });
  const fail = (error: ActionError, reason: string): ActionResult => end({ status: "failed", reason, error });
  const unknown = (error: ActionError, reason: string): ActionResult =>
    end({ status: "unknown", reason, error });

  d.emit({
    type: "action-start",
    at: startedAt,
    id: action.id,
    kind: action.kind,
    project_id: action.project_id,
    idempotency_key: s.key,
  });
  for (let n = 1; ; n++) {
    const refusal = s.recheck?.(new Date(d.clock.now())) ?? null;
    if (refusal !== null) {
      const error = ownActionError(refusal.code, refusal.message);
      // Nothing sent yet: the action is blocked. After an answer that was not certain (unknown, or
      // 409 still running), an earlier send may still take effect: unknown. After answers that
      // say nothing happened (429, 503 SEND_ENQUEUE_FAILED): failed.
      if (n === 1) return end({ status: "blocked", reason: refusal.message, idempotency_key: null });
      return end({
        status: uncertain ? "unknown" : "failed",
        reason: `not sent again: ${refusal.message}`,
        error,
      });
    }
    d.emit({ type: "send", at: now(), id: action.id, send: n, idempotency_key: s.key });
    const res = await send(d.port, action, s.body, s.key);
    if (res.ok) {
      attempts += res.meta.attempts;
      d.emit({
        type: "response",
        at: now(),
        id: action.id,
        send: n,
        status: res.meta.status,
        code: null,
        replayed: res.meta.replayed,
        outcome: "ok",
        http_attempts: res.meta.attempts,
      });
      const ours = res.meta.replayed && hadUnknown;
      if (ours)
        notes.push(
          `send ${n}: answered from the API's idempotency store: an earlier send of this run took effect`,
        );
      else if (notes.length > 0) notes.push(`send ${n}: accepted; the ${action.kind} took effect`);
      return end({
        status: res.meta.replayed && !ours ? "replayed" : "done",
        reason:
          res.meta.replayed && !ours
            ? "already done with this key (an earlier or concurrent run); the API replayed its answer"
            : action.reason,
        status_after: action.after,
        test_messages: action.kind === "test" ? testMessagesOf(res.value) : [],
        schedule: action.kind === "schedule" ? scheduleEffectOf(res.value, s.body) : null,
      });
    }
    const e = res.error;
    attempts += e.attempts;
    d.emit({
      type: "response",
      at: now(),
      id: action.id,
      send: n,
      status: e.status,
      code: e.kind === "http" ? e.code : e.cause,
      replayed: false,
      outcome: e.outcome,
      http_attempts: e.attempts,
    });
    const failure = writeFailureOf(e);
    const last = n >= d.maxSends;
    uncertain ||= e.outcome === "unknown";
    if (failure === "refused") return fail(errorOf(e), `the API refused the ${action.kind}`);
    const stillUnknown = (reason: string): ActionResult =>
      unknown(ownActionError("apply.outcome-unknown", errorOf(e).message, e.status), reason);
    const stopping = last || d.signal.aborted;
    // Read before sending again after an unknown outcome; read before stopping when some answer
    // (unknown, or 409 still running) left open whether the action took effect. Never resend blindly.
    if (failure !== "unknown" && !(stopping && uncertain)) {
      // 429 or 503 SEND_ENQUEUE_FAILED (nothing happened), or 409 with attempts left to wait it out.
      if (d.signal.aborted) return fail(interrupted(), "interrupted; nothing was sent that took effect");
      if (last) return fail(errorOf(e), `the ${action.kind} did not take effect after ${n} attempts`);
    } else {
      hadUnknown ||= failure === "unknown";
      const judged = await resolve(s, d, now);
      // Each note says which send it follows, so the resolution reads as what happened, in order.
      notes.push(`after send ${n}: ${judged.text}`);
      switch (judged.verdict) {
        case "happened":
          return end({
            status: "done",
            reason: action.reason,
            status_after: judged.project?.status ?? action.after,
            schedule:
              action.kind === "schedule" && judged.project
                ? scheduleEffectOfProject(judged.project, s.body)
                : null,
          });
        case "changed":
          return fail(
            ownActionError("apply.concurrent-change", `${action.address}: ${judged.text}`, e.status),
            "the project changed under apply; nothing more was sent to it; plan again",
          );
        case "unreadable":
          return unknown(
            ownActionError(
              "apply.outcome-unknown",
              `${action.address}: ${errorOf(e).message}; ${judged.text}`,
              e.status,
            ),
            "the outcome is unknown: the project could not be re-read",
          );
        case "not-happened":
          // An answer was no answer (a timeout, a reset, a 5xx, a 409): that request may still be
          // processing and take effect later, so a re-read that shows nothing yet proves nothing.
          if (d.signal.aborted) return stillUnknown("interrupted before the outcome was confirmed");
          if (last)
            return stillUnknown(
              `no effect seen after ${n} attempts, not all of them answered for certain; it may still take effect`,
            );
          break;
      }
    }
    const delay = resendDelayMs(d.backoffMs, n, retryAfterOf(e));
    d.emit({ type: "backoff", at: now(), id: action.id, reason: "resend", delay_ms: delay });
    await sleepUnlessAborted(d.sleep, delay, d.signal);
  }
}

function interrupted(): ActionError {
  return ownActionError("apply.interrupted", "interrupted (Ctrl-C)");
}

interface Resolved {
  readonly verdict: EffectVerdict;
  readonly text: string;
  readonly project: Project | null;
}

/**
 * Re-reads the project once and checks whether the action took effect (`effect-check.ts`). The read is the client's: it retries a
 * failed read on its own curve (the one retry layer of reads), so a failure here is final.
 */
async function resolve(s: Sendable, d: PerformDeps, now: () => string): Promise<Resolved> {
  const res = await d.port.getProject(s.action.project_id);
  if (!res.ok) {
    const text = `re-read failed after ${res.error.attempts} attempts (${res.error.message})`;
    d.emit({
      type: "resolution",
      at: now(),
      id: s.action.id,
      verdict: "unreadable",
      live_status: null,
      live_updated_at: null,
      text,
    });
    return { verdict: "unreadable", text, project: null };
  }
  const live = { status: res.value.status, updated_at: res.value.updated_at };
  const judged = checkEffect(s.action.kind, s.basis, live);
  d.emit({
    type: "resolution",
    at: now(),
    id: s.action.id,
    verdict: judged.verdict,
    live_status: live.status,
    live_updated_at: live.updated_at,
    text: judged.text,
  });
  return { ...judged, project: res.value };
}
