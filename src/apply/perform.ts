/**
 * One action, sent and settled: send with the plan's key; on success done (or replayed); on a
 * certain non-effect the client could not retry away (429 or 503 SEND_ENQUEUE_FAILED after its own
 * retries) send again with the same key after a backoff; on any other 4xx fail; on an unknown
 * outcome re-read the project and judge (`judge.ts`): happened -> done with the resolution,
 * not happened -> send again with the same key, changed -> fail and send nothing more.
 */
import type { ApiError, ApiResult, Clock, Sleep } from "../api/index.js";
import type { PauseRequest, Project, ScheduleRequest, TestRequest } from "../contract/resources.js";
import type { Action, LiveBasis } from "../plan/types.js";
import { scheduleEffectOf, scheduleEffectOfProject, testMessagesOf } from "./effects.js";
import type { ApplyEventListener, Verdict } from "./events.js";
import { type Judgement, judgeTransition } from "./judge.js";
import type { ApplyPort } from "./port.js";
import type { ActionError, ActionResult } from "./types.js";
import { backoff, isoAt, sleepUnlessAborted } from "./waits.js";

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
  readonly code: string;
  readonly message: string;
}

export interface PerformDeps {
  readonly port: ApplyPort;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly signal: AbortSignal;
  readonly emit: ApplyEventListener;
  readonly maxSends: number;
  readonly backoffMs: number;
}

/** Re-reads of the project after one unknown outcome before giving up on resolving it. */
const MAX_REREADS = 4;

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
  switch (e.kind) {
    case "http":
      return { status: e.status, code: e.code, message: e.message };
    case "network":
      return { status: e.status, code: e.cause, message: e.message };
  }
}

/** Errors the contract says mean "nothing happened, send the same call again". */
function isRetriableNone(e: ApiError): boolean {
  return e.kind === "http" && (e.status === 429 || (e.status === 503 && e.code === "SEND_ENQUEUE_FAILED"));
}

export async function performAction(s: Sendable, d: PerformDeps): Promise<ActionResult> {
  const { action } = s;
  const now = () => isoAt(d.clock.now());
  const startedAt = now();
  const notes: string[] = [];
  let attempts = 0;
  let hadUnknown = false;
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
      const error = { status: null, code: refusal.code, message: refusal.message };
      // Nothing sent yet: the action is blocked. After an unknown outcome, the earlier send may
      // still have taken effect: unknown.
      return n === 1
        ? end({ status: "blocked", reason: refusal.message, idempotency_key: null })
        : end({ status: "unknown", reason: `not sent again: ${refusal.message}`, error });
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
        notes.push("answered from the API's idempotency store: an earlier send of this run took effect");
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
    if (e.outcome === "none") {
      if (!isRetriableNone(e)) return fail(errorOf(e), `the API refused the ${action.kind}`);
      if (d.signal.aborted) return fail(interrupted(), "interrupted; nothing was sent that took effect");
      if (n >= d.maxSends) return fail(errorOf(e), `the ${action.kind} did not take effect after ${n} sends`);
      const retryAfter = e.kind === "http" && e.retryAfterSeconds !== null ? e.retryAfterSeconds * 1000 : 0;
      const delay = Math.max(backoff(d.backoffMs, n), retryAfter);
      d.emit({ type: "backoff", at: now(), id: action.id, reason: "resend", delay_ms: delay });
      await sleepUnlessAborted(d.sleep, delay, d.signal);
      continue;
    }
    hadUnknown = true;
    const judged = await resolve(s, d, now);
    notes.push(judged.text);
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
          { status: e.status, code: "apply.concurrent-change", message: `${action.address}: ${judged.text}` },
          "the project changed under apply; nothing more was sent to it; plan again",
        );
      case "unreadable":
        return unknown(
          {
            status: e.status,
            code: "apply.outcome-unknown",
            message: `${action.address}: ${errorOf(e).message}; ${judged.text}`,
          },
          "the outcome is unknown: the project could not be re-read",
        );
      case "not-happened":
        // The last answer was no answer (a timeout, a reset, a 5xx): the request may still be
        // processing and take effect later, so a re-read that shows nothing yet proves nothing.
        if (d.signal.aborted)
          return unknown(
            { ...errorOf(e), code: "apply.outcome-unknown" },
            "interrupted before the outcome was confirmed",
          );
        if (n >= d.maxSends)
          return unknown(
            { ...errorOf(e), code: "apply.outcome-unknown" },
            `no effect seen after ${n} sends whose outcome was unknown; it may still take effect`,
          );
        break;
    }
    const delay = backoff(d.backoffMs, n);
    d.emit({ type: "backoff", at: now(), id: action.id, reason: "resend", delay_ms: delay });
    await sleepUnlessAborted(d.sleep, delay, d.signal);
  }
}

function interrupted(): ActionError {
  return { status: null, code: "interrupted", message: "interrupted (Ctrl-C)" };
}

interface Resolved {
  readonly verdict: Verdict;
  readonly text: string;
  readonly project: Project | null;
}

/** Re-reads the project (a few times if the read itself fails) and judges the transition. */
async function resolve(s: Sendable, d: PerformDeps, now: () => string): Promise<Resolved> {
  let last = "";
  for (let read = 1; read <= MAX_REREADS; read++) {
    const res = await d.port.getProject(s.action.project_id);
    if (res.ok) {
      const live = { status: res.value.status, updated_at: res.value.updated_at };
      const judged: Judgement = judgeTransition(s.action.kind, s.basis, live);
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
    last = res.error.message;
    if (read < MAX_REREADS) {
      const delay = backoff(d.backoffMs, read);
      d.emit({ type: "backoff", at: now(), id: s.action.id, reason: "reread", delay_ms: delay });
      await sleepUnlessAborted(d.sleep, delay, d.signal);
    }
  }
  const text = `re-read failed ${MAX_REREADS} times (${last})`;
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
