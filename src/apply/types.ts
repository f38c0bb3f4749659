/**
 * What `apply` did: data, rendered by `src/report/apply-*.ts`. Field names are the JSON names
 * (snake_case): the in-memory result and the `--json` document are the same data, versioned by
 * `APPLY_FORMAT_VERSION` and described by `schemas/apply-result.schema.json`.
 */

import type { NetworkCause } from "../api/index.js";
import type { ContractErrorCode } from "../contract/errors.js";
import type { ProjectStatus } from "../contract/limits.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { EmailApplyResult } from "../plan/items.js";
import type { ActionKind, NamedRecord } from "../plan/types.js";

export const APPLY_FORMAT_VERSION = 1;

/**
 * The end state of one action of the plan:
 * - `done`: the request took effect in this run (2xx, or an unknown outcome resolved by re-reading
 *   the project and finding the transition made).
 * - `replayed`: the API answered from its idempotency store (`X-Idempotent-Replayed: true`): an
 *   earlier run (or a concurrent one) already did it; nothing happened twice.
 * - `failed`: the API refused it (a 4xx other than those the contract says to retry) or retries ran
 *   out; `error` says why.
 * - `skipped`: not attempted because an action it depends on failed, was blocked or was skipped.
 * - `blocked`: the plan blocked it; apply does not attempt blocked actions.
 * - `deferred`: it waits for something outside our control (test approval); a later apply does it.
 * - `not-started`: the run was interrupted (Ctrl-C) before it started.
 * - `unknown`: a request may or may not have taken effect and no re-read in this run settled it;
 *   re-running apply is safe (the same key replays if it took effect).
 */
export type ActionResultStatus =
  | "done"
  | "replayed"
  | "failed"
  | "skipped"
  | "blocked"
  | "deferred"
  | "not-started"
  | "unknown";

/** A test message as the API reported it (`sent_to` is masked by the API). */
export interface SentTestMessage {
  readonly test_message_id: string;
  readonly sent_to: string;
}

/** The schedule that took effect, in the schedule's timezone and in UTC, for the report. */
export interface ScheduleEffect {
  readonly scheduled_at: string;
  readonly scheduled_timezone: string;
  readonly local_time: string;
  readonly utc_time: string;
  readonly daily_cap_bypass: boolean;
}

/**
 * The API's error code of an action error, a closed union: a code the contract names; `UNAUTHORIZED`
 * or `FORBIDDEN` (an authentication body, which carries no code: the client names it by status); or
 * `UNLISTED`: a code the contract does not name, or none at all.
 */
export type ApiErrorCode = ContractErrorCode | "UNAUTHORIZED" | "FORBIDDEN" | "UNLISTED";

/** The API answered with an error status (4xx, 5xx). */
export interface ApiActionError {
  readonly source: "api";
  readonly status: number;
  readonly code: ApiErrorCode;
  /** The code exactly as the error body gave it; null when the body had none. */
  readonly api_code: string | null;
  readonly message: string;
}

/** No usable answer came: the transport failed (`cause`), or a response's body could not be read. */
export interface TransportActionError {
  readonly source: "transport";
  /** The HTTP status of a response whose body could not be read (`malformed-response`); else null. */
  readonly status: number | null;
  readonly cause: NetworkCause;
  readonly message: string;
}

/**
 * A finding of campaignctl's own, as a diagnostic code: the outcome stayed unknown, the project
 * changed under apply, the action was refused or blocked when re-judged, the run was interrupted.
 */
export interface CampaignctlActionError {
  readonly source: "campaignctl";
  /** The HTTP status of the action's last answer, when it had one. */
  readonly status: number | null;
  readonly code: DiagnosticCode;
  readonly message: string;
}

/**
 * Why an action failed, or the last error of an unknown outcome, by where it arose (`source`).
 * Invariant: no member contains the API key. Built by `action-error.ts`.
 */
export type ActionError = ApiActionError | TransportActionError | CampaignctlActionError;

/**
 * The result of one action. Invariants: `id` is the plan's action id; `attempts` counts HTTP
 * attempts of the mutating request (0 when not attempted); `idempotency_key` is the key sent (null
 * when nothing was sent); `error` present iff `status` is `failed` or `unknown`; `reason` is for display.
 */
export interface ActionResult {
  readonly id: string;
  readonly address: string;
  readonly project_id: string;
  readonly kind: ActionKind;
  readonly status: ActionResultStatus;
  readonly reason: string;
  readonly attempts: number;
  readonly idempotency_key: string | null;
  /** How an unknown outcome was resolved, if one had to be ("re-read: status scheduled"). */
  readonly resolution: string | null;
  readonly status_after: ProjectStatus | null;
  readonly test_messages: readonly SentTestMessage[];
  readonly schedule: ScheduleEffect | null;
  readonly error: ActionError | null;
  readonly started_at: string | null;
  readonly finished_at: string | null;
}

/** Requests the whole run made (stale check, actions, resolutions, approval polls). */
export interface ApplyRequests {
  readonly total: number;
  readonly by_endpoint: Readonly<Record<string, number>>;
  readonly retries: number;
  readonly rate_limited_429: number;
  /** Milliseconds spent waiting for the client-side rate limiter and Retry-After. */
  readonly rate_limit_wait_ms: number;
}

export interface ApplySummary {
  readonly done: number;
  readonly replayed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly blocked: number;
  readonly deferred: number;
  readonly not_started: number;
  readonly unknown: number;
  /**
   * The email lists of the run by how their sync ended (present exactly when `email` is): synced,
   * skipped for early access, failed; `not_sent` counts the lists the run did not sync (nothing was
   * approved, or the plan was refused).
   */
  readonly email_lists?: EmailListCounts;
}

/** Email lists of an apply run by outcome. */
export interface EmailListCounts {
  readonly synced: number;
  readonly skipped: number;
  readonly failed: number;
  readonly not_sent: number;
}

/**
 * A project whose file asks for something (desired state other than `draft`) but which could not
 * be read in this run: nothing was judged or sent for it, and the run fails (exit 1).
 */
export interface UnreadableProject {
  readonly address: string;
  readonly project_id: string;
  readonly desired: string;
  /** Why it could not be read (the API's answer, never the key). */
  readonly message: string;
}

/**
 * The apply report. Invariants: `actions` lists every action of the plan in plan order;
 * `refused` is non-empty iff nothing was attempted because the plan was stale or invalid.
 */
export interface ApplyResult {
  readonly format_version: typeof APPLY_FORMAT_VERSION;
  readonly tool_version: string;
  readonly base_url: string;
  readonly plan_created_at: string;
  readonly started_at: string;
  readonly finished_at: string;
  readonly interrupted: boolean;
  /** Why the whole plan was refused (stale, changed files, wrong format); empty when it ran. */
  readonly refused: readonly Diagnostic[];
  readonly actions: readonly ActionResult[];
  readonly requests: ApplyRequests;
  /**
   * Reads made in this run to confirm the basis of mutating requests (stats pages and project
   * reads by id of the reconciliation loop); also counted in `requests`.
   */
  readonly basis_reads: number;
  /** Projects the files ask something of that could not be read; non-empty fails the run. */
  readonly unreadable: readonly UnreadableProject[];
  readonly summary: ApplySummary;
  /**
   * The run per organization (issue 26), present when the plan's projects belong to two or more
   * organizations: which are done, pending, blocked or failed (src/apply/organizations.ts).
   */
  readonly organizations?: readonly OrganizationApply[];
  /**
   * The email lists the plan held and what their sync came to (src/apply/email-result.ts); absent
   * when the plan holds no email. Part of the run: its failures fail the run, its syncs count in
   * the summary (`summary.email_lists`) and its requests in `requests`.
   */
  readonly email?: EmailApplyResult;
  /** Path of this run's journal (JSON lines), when one was written. */
  readonly journal: string | null;
}

/**
 * What one organization's part of the run came to, worst first: `failed` an action failed, its
 * outcome is unknown, it was skipped after a failure, or a project could not be read; `blocked` an
 * action was blocked (nothing of it was sent); `interrupted` the run stopped before an action of it
 * started; `pending` deferred actions wait for approval; `done` every action is in effect.
 */
export type OrganizationApplyState = "failed" | "blocked" | "interrupted" | "pending" | "done";

/** Invariant: `projects` are the addresses of the organization's section of the plan. */
export interface OrganizationApply {
  readonly organization: NamedRecord | null;
  readonly state: OrganizationApplyState;
  readonly projects: readonly string[];
  readonly counts: {
    /** Done or replayed (in effect). */
    readonly done: number;
    readonly deferred: number;
    readonly blocked: number;
    /** Failed, unknown or skipped actions, and unreadable projects. */
    readonly failed: number;
    readonly not_started: number;
  };
}
