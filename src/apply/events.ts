/**
 * Progress of an apply run as a stream of events: what the journal records line by line and what
 * the progress view draws. Invariant: no event carries the API key or any header value; the
 * idempotency key (not a secret) is carried so the journal can be audited against the API's log.
 */
import type { ApiEvent } from "../api/index.js";
import type { ProjectStatus } from "../contract/limits.js";
import type { ActionKind } from "../plan/types.js";
import type { ActionError, ActionResultStatus, ApplySummary } from "./types.js";

/** What the effect check made of a re-read after an unknown outcome (see `effect-check.ts`). */
export type EffectVerdict = "happened" | "not-happened" | "changed" | "unreadable";

/** Fields every apply event has: `at` is the injected clock's time (ISO 8601). */
interface Base {
  readonly at: string;
}

/** The run begins: how many actions, how many will be sent, at what parallelism. */
export interface RunStartEvent extends Base {
  readonly type: "run-start";
  readonly actions: number;
  readonly sendable: number;
  readonly parallelism: number;
  readonly wait_for_approval_ms: number | null;
}

/** An action starts (its dependencies are done and a slot is free). */
export interface ActionStartEvent extends Base {
  readonly type: "action-start";
  readonly id: string;
  readonly kind: ActionKind;
  readonly project_id: string;
  readonly idempotency_key: string;
}

/** The loop sends the action's request (`send` is 1-based; the client may retry inside it). */
export interface SendEvent extends Base {
  readonly type: "send";
  readonly id: string;
  readonly send: number;
  readonly idempotency_key: string;
}

/** The client returned: a success (`ok`), a certain non-effect (`none`) or an `unknown` outcome. */
export interface ResponseEvent extends Base {
  readonly type: "response";
  readonly id: string;
  readonly send: number;
  readonly status: number | null;
  readonly code: string | null;
  readonly replayed: boolean;
  readonly outcome: "ok" | "none" | "unknown";
  /** HTTP attempts the client made for this send (its own 429/409/503 retries included). */
  readonly http_attempts: number;
}

/** A re-read of the project after an unknown outcome, and what it says. */
export interface ResolutionEvent extends Base {
  readonly type: "resolution";
  readonly id: string;
  readonly verdict: EffectVerdict;
  readonly live_status: ProjectStatus | null;
  readonly live_updated_at: string | null;
  readonly text: string;
}

/** The loop will send again (same key) or re-read again after `delay_ms`. */
export interface BackoffEvent extends Base {
  readonly type: "backoff";
  readonly id: string;
  readonly reason: "resend" | "reread";
  readonly delay_ms: number;
}

/** A deferred schedule polled its project and is still waiting for the test approval. */
export interface WaitingEvent extends Base {
  readonly type: "waiting";
  readonly id: string;
  readonly live_status: ProjectStatus | null;
  readonly next_poll_ms: number;
  readonly deadline: string;
}

/** An action reached its end state. */
export interface ActionEndEvent extends Base {
  readonly type: "action-end";
  readonly id: string;
  readonly status: ActionResultStatus;
  readonly reason: string;
  readonly resolution: string | null;
  readonly error: ActionError | null;
  readonly attempts: number;
}

/** The abort signal fired: nothing new starts. */
export interface InterruptEvent extends Base {
  readonly type: "interrupt";
  readonly in_flight: number;
}

/** The run ended. */
export interface RunEndEvent extends Base {
  readonly type: "run-end";
  readonly interrupted: boolean;
  readonly summary: ApplySummary;
}

/** A client event (attempt, response status, replay header, retry, rate-limit wait), forwarded. */
export interface ApiForwardEvent extends Base {
  readonly type: "api";
  readonly event: ApiEvent;
}

export type ApplyEvent =
  | RunStartEvent
  | ActionStartEvent
  | SendEvent
  | ResponseEvent
  | ResolutionEvent
  | BackoffEvent
  | WaitingEvent
  | ActionEndEvent
  | InterruptEvent
  | RunEndEvent
  | ApiForwardEvent;

/** Event hook; it must not throw. */
export type ApplyEventListener = (event: ApplyEvent) => void;
