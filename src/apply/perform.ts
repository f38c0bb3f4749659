/**
 * One action, sent and settled through the one write executor (`src/api/write-executor.ts`: the
 * attempt budget N = `maxSends`, the backoff curve raised to `Retry-After`, the contract's retry
 * classes, a refused 4xx fails at once). What is apply's own here: the re-read that settles an
 * unknown outcome (`effect-check.ts`: happened -> done with the resolution, not happened -> send
 * again with the same key, changed -> fail and send nothing more), the re-judgement on the clock
 * before each send (`recheck`), the journal events, and the mapping of the executor's outcome to an
 * `ActionResult`.
 */
import type { ApiError, ApiResult, Clock, Sleep } from "../api/index.js";
import { executeWrite, type Reread } from "../api/write-executor.js";
import type { PauseRequest, Project, ScheduleRequest, TestRequest } from "../contract/resources.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import type { Action, LiveBasis } from "../plan/types.js";
import { apiActionError, ownActionError } from "./action-error.js";
import { checkEffect } from "./effect-check.js";
import { scheduleEffectOf, scheduleEffectOfProject, testMessagesOf } from "./effects.js";
import type { ApplyEventListener } from "./events.js";
import type { ApplyPort } from "./port.js";
import type { ActionError, ActionResult } from "./types.js";
import { isoAt } from "./waits.js";

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

export async function performAction(s: Sendable, d: PerformDeps): Promise<ActionResult> {
  const { action } = s;
  const now = () => isoAt(d.clock.now());
  const startedAt = now();
  const notes: string[] = [];
  let attempts = 0;
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
  let refusal: Refusal | null = null;
  const outcome = await executeWrite<unknown, Project>(
    {
      send: () => send(d.port, action, s.body, s.key),
      reread: () => reread(s, d),
      before: () => {
        refusal = s.recheck?.(new Date(d.clock.now())) ?? null;
        return refusal === null ? null : refusal.message;
      },
      onSend: (n) => d.emit({ type: "send", at: now(), id: action.id, send: n, idempotency_key: s.key }),
      onAnswer: (n, res) => {
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
          return;
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
      },
      onReread: (n, judged) => {
        d.emit({
          type: "resolution",
          at: now(),
          id: action.id,
          verdict: judged.verdict,
          live_status: judged.value?.status ?? null,
          live_updated_at: judged.value?.updated_at ?? null,
          text: judged.text,
        });
        // Each note says which send it follows, so the resolution reads as what happened, in order.
        notes.push(`after send ${n}: ${judged.text}`);
      },
      onBackoff: (_n, delay) =>
        d.emit({ type: "backoff", at: now(), id: action.id, reason: "resend", delay_ms: delay }),
    },
    { maxAttempts: d.maxSends, firstBackoffMs: d.backoffMs, sleep: d.sleep, signal: d.signal },
  );
  switch (outcome.kind) {
    case "accepted": {
      const n = outcome.sends;
      if (outcome.ours)
        notes.push(
          `send ${n}: answered from the API's idempotency store: an earlier send of this run took effect`,
        );
      else if (notes.length > 0) notes.push(`send ${n}: accepted; the ${action.kind} took effect`);
      const replayed = outcome.replayed && !outcome.ours;
      return end({
        status: replayed ? "replayed" : "done",
        reason: replayed
          ? "already done with this key (an earlier or concurrent run); the API replayed its answer"
          : action.reason,
        status_after: action.after,
        test_messages: action.kind === "test" ? testMessagesOf(outcome.value) : [],
        schedule: action.kind === "schedule" ? scheduleEffectOf(outcome.value, s.body) : null,
      });
    }
    case "blocked":
      // Nothing sent yet: the action is blocked.
      return end({ status: "blocked", reason: outcome.refusal, idempotency_key: null });
    case "stopped": {
      // After an answer that was not certain (unknown, or 409 still running), an earlier send may
      // still take effect: unknown. After answers that say nothing happened: failed.
      const r = refusal as Refusal | null;
      return end({
        status: outcome.uncertain ? "unknown" : "failed",
        reason: `not sent again: ${outcome.refusal}`,
        error: ownActionError(r?.code ?? "apply.interrupted", outcome.refusal),
      });
    }
    case "refused":
      return fail(errorOf(outcome.error), `the API refused the ${action.kind}`);
    case "not-taken":
      if (outcome.interrupted) return fail(interrupted(), "interrupted; nothing was sent that took effect");
      return fail(
        errorOf(outcome.error),
        `the ${action.kind} did not take effect after ${outcome.sends} attempts`,
      );
    case "happened": {
      const project = outcome.reread.value;
      return end({
        status: "done",
        reason: action.reason,
        status_after: project?.status ?? action.after,
        schedule: action.kind === "schedule" && project ? scheduleEffectOfProject(project, s.body) : null,
      });
    }
    case "changed":
      return fail(
        ownActionError(
          "apply.concurrent-change",
          `${action.address}: ${outcome.reread.text}`,
          outcome.error.status,
        ),
        "the project changed under apply; nothing more was sent to it; plan again",
      );
    case "unreadable":
      return unknown(
        ownActionError(
          "apply.outcome-unknown",
          `${action.address}: ${errorOf(outcome.error).message}; ${outcome.reread.text}`,
          outcome.error.status,
        ),
        "the outcome is unknown: the project could not be re-read",
      );
    case "unknown": {
      const error = ownActionError(
        "apply.outcome-unknown",
        errorOf(outcome.error).message,
        outcome.error.status,
      );
      if (outcome.interrupted) return unknown(error, "interrupted before the outcome was confirmed");
      return unknown(
        error,
        `no effect seen after ${outcome.sends} attempts, not all of them answered for certain; it may still take effect`,
      );
    }
  }
}

function interrupted(): ActionError {
  return ownActionError("apply.interrupted", "interrupted (Ctrl-C)");
}

/**
 * Re-reads the project once and checks whether the action took effect (`effect-check.ts`). The read
 * is the client's: it retries a failed read on its own curve (the one retry layer of reads), so a
 * failure here is final.
 */
async function reread(s: Sendable, d: PerformDeps): Promise<Reread<Project>> {
  const res = await d.port.getProject(s.action.project_id);
  if (!res.ok)
    return {
      verdict: "unreadable",
      text: `re-read failed after ${res.error.attempts} attempts (${res.error.message})`,
      value: null,
    };
  const judged = checkEffect(s.action.kind, s.basis, {
    status: res.value.status,
    updated_at: res.value.updated_at,
  });
  return { verdict: judged.verdict, text: judged.text, value: res.value };
}
