/** Building the apply result: per-action results, the summary and request accounting. Pure. */

import type { ApiClientStats } from "../api/index.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Action, Plan } from "../plan/types.js";
import { emailSucceeded } from "./email-result.js";
import {
  type ActionResult,
  type ActionResultStatus,
  APPLY_FORMAT_VERSION,
  type ApplyRequests,
  type ApplyResult,
  type ApplySummary,
} from "./types.js";

/** A result of an action that was not sent (blocked, deferred, skipped, not started). */
export function unsentResult(action: Action, status: ActionResultStatus, reason: string): ActionResult {
  return {
    id: action.id,
    address: action.address,
    project_id: action.project_id,
    kind: action.kind,
    status,
    reason,
    attempts: 0,
    idempotency_key: null,
    resolution: null,
    status_after: null,
    test_messages: [],
    schedule: null,
    error: null,
    started_at: null,
    finished_at: null,
  };
}

/** Every count at zero, in the reports' order. */
/** The counts of the summary that count actions (all but the email lists). */
export type ActionCountKey = Exclude<keyof ApplySummary, "email_lists">;

export const NO_OUTCOMES: Record<ActionCountKey, number> = {
  done: 0,
  replayed: 0,
  failed: 0,
  skipped: 0,
  blocked: 0,
  deferred: 0,
  not_started: 0,
  unknown: 0,
};

/** The summary count a status adds to. Exhaustive: a new status fails to compile here. */
export function outcomeCountKey(status: ActionResultStatus): ActionCountKey {
  switch (status) {
    case "done":
    case "replayed":
    case "failed":
    case "skipped":
    case "blocked":
    case "deferred":
    case "unknown":
      return status;
    case "not-started":
      return "not_started";
  }
}

/** The count of each status among `statuses`. */
export function countOutcomes(statuses: Iterable<ActionResultStatus>): ApplySummary {
  const counts: Record<ActionCountKey, number> = { ...NO_OUTCOMES };
  for (const status of statuses) counts[outcomeCountKey(status)]++;
  return counts;
}

export function summarizeResults(actions: readonly ActionResult[]): ApplySummary {
  return countOutcomes(actions.map((a) => a.status));
}

/** Requests between two snapshots of the client's statistics (`before` null: since the client began). */
export function requestsBetween(before: ApiClientStats | null, after: ApiClientStats): ApplyRequests {
  const byEndpoint: Record<string, number> = {};
  for (const [route, n] of Object.entries(after.byEndpoint)) {
    const d = n - (before?.byEndpoint[route] ?? 0);
    if (d > 0) byEndpoint[route] = d;
  }
  return {
    total: after.requests - (before?.requests ?? 0),
    by_endpoint: byEndpoint,
    retries: after.retries - (before?.retries ?? 0),
    rate_limited_429: after.throttled - (before?.throttled ?? 0),
    // The limiter's waits are sequential (wall or virtual time) and include 429 Retry-After holds.
    rate_limit_wait_ms: after.rateLimiter.waitMs - (before?.rateLimiter.waitMs ?? 0),
  };
}

/** A run that sent nothing because the plan was refused (stale, changed files, unreadable). */
export function refusedResult(
  plan: Plan | null,
  refused: readonly Diagnostic[],
  meta: UnsentRunMeta,
): ApplyResult {
  const actions =
    plan?.projects.flatMap((p) =>
      p.actions.map((a) =>
        unsentResult(a, a.status === "blocked" ? "blocked" : "not-started", "the plan was refused"),
      ),
    ) ?? [];
  return unsentRunResult(plan?.created_at ?? meta.at, actions, refused, meta);
}

/** What a run made and sent nothing under (the tool, the API, the API's time of the run, its requests). */
export interface UnsentRunMeta {
  readonly toolVersion: string;
  readonly baseUrl: string;
  readonly at: string;
  readonly requests: ApplyRequests;
}

/**
 * The result of a run that sent nothing (a refused plan, a plan already applied): it started and
 * finished at `meta.at`, read no basis, found nothing unreadable and wrote no journal.
 */
export function unsentRunResult(
  planCreatedAt: string,
  actions: readonly ActionResult[],
  refused: readonly Diagnostic[],
  meta: UnsentRunMeta,
): ApplyResult {
  return {
    format_version: APPLY_FORMAT_VERSION,
    tool_version: meta.toolVersion,
    base_url: meta.baseUrl,
    plan_created_at: planCreatedAt,
    started_at: meta.at,
    finished_at: meta.at,
    interrupted: false,
    refused,
    actions,
    requests: meta.requests,
    basis_reads: 0,
    unreadable: [],
    summary: summarizeResults(actions),
    journal: null,
  };
}

/**
 * Whether every action ended done, replayed or deferred, nothing was refused and every project the
 * files ask something of was read (exit code 0).
 */
export function applySucceeded(result: ApplyResult): boolean {
  return (
    emailSucceeded(result) &&
    result.refused.length === 0 &&
    result.unreadable.length === 0 &&
    !result.interrupted &&
    result.actions.every((a) => a.status === "done" || a.status === "replayed" || a.status === "deferred")
  );
}
