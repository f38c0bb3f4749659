/**
 * The apply report as JSON (`apply --json`): the result's own data, keys in a stable order (the
 * order of `src/apply/types.ts`, which is the schema's), request counts by endpoint with keys
 * sorted, 2-space indent, a final newline. So the same result always gives the same bytes.
 */

import type { ActionError, ActionResult, ApplyResult } from "../apply/types.js";
import { type DiagnosticJson, diagnosticJson } from "../diagnostics/json.js";
import { emailApplyJson } from "./email-json.js";
import { sortKeys } from "./plan-json.js";

/** The apply report as written: the result with its refusals in the one JSON shape of a diagnostic. */
export type ApplyResultJson = Omit<ApplyResult, "refused" | "email"> & {
  readonly refused: readonly DiagnosticJson[];
  readonly email?: ReturnType<typeof emailApplyJson>;
};

/** Renders the apply report document (`schemas/apply-result.schema.json`): the whole result, email included. */
export function renderApplyJson(result: ApplyResult): string {
  return `${JSON.stringify(orderApplyResult(result), null, 2)}\n`;
}

/** The result with keys in document order (what {@link renderApplyJson} serialises). */
export function orderApplyResult(result: ApplyResult): ApplyResultJson {
  return {
    format_version: result.format_version,
    tool_version: result.tool_version,
    base_url: result.base_url,
    plan_created_at: result.plan_created_at,
    started_at: result.started_at,
    finished_at: result.finished_at,
    interrupted: result.interrupted,
    refused: result.refused.map(diagnosticJson),
    actions: result.actions.map(orderAction),
    requests: {
      total: result.requests.total,
      by_endpoint: sortKeys(result.requests.by_endpoint) as Record<string, number>,
      retries: result.requests.retries,
      rate_limited_429: result.requests.rate_limited_429,
      rate_limit_wait_ms: result.requests.rate_limit_wait_ms,
    },
    basis_reads: result.basis_reads,
    unreadable: result.unreadable.map((u) => ({
      address: u.address,
      project_id: u.project_id,
      desired: u.desired,
      message: u.message,
    })),
    summary: {
      done: result.summary.done,
      replayed: result.summary.replayed,
      failed: result.summary.failed,
      skipped: result.summary.skipped,
      blocked: result.summary.blocked,
      deferred: result.summary.deferred,
      not_started: result.summary.not_started,
      unknown: result.summary.unknown,
      ...(result.summary.email_lists === undefined
        ? {}
        : {
            email_lists: {
              synced: result.summary.email_lists.synced,
              skipped: result.summary.email_lists.skipped,
              failed: result.summary.email_lists.failed,
              not_sent: result.summary.email_lists.not_sent,
            },
          }),
    },
    ...(result.organizations === undefined
      ? {}
      : {
          organizations: result.organizations.map((o) => ({
            organization:
              o.organization === null ? null : { id: o.organization.id, name: o.organization.name },
            state: o.state,
            projects: o.projects,
            counts: {
              done: o.counts.done,
              deferred: o.counts.deferred,
              blocked: o.counts.blocked,
              failed: o.counts.failed,
              not_started: o.counts.not_started,
            },
          })),
        }),
    ...(result.email === undefined ? {} : { email: emailApplyJson(result.email) }),
    journal: result.journal,
  };
}

function orderAction(a: ActionResult): ActionResult {
  return {
    id: a.id,
    address: a.address,
    project_id: a.project_id,
    kind: a.kind,
    status: a.status,
    reason: a.reason,
    attempts: a.attempts,
    idempotency_key: a.idempotency_key,
    resolution: a.resolution,
    status_after: a.status_after,
    test_messages: a.test_messages.map((m) => ({ test_message_id: m.test_message_id, sent_to: m.sent_to })),
    schedule:
      a.schedule === null
        ? null
        : {
            scheduled_at: a.schedule.scheduled_at,
            scheduled_timezone: a.schedule.scheduled_timezone,
            local_time: a.schedule.local_time,
            utc_time: a.schedule.utc_time,
            daily_cap_bypass: a.schedule.daily_cap_bypass,
          },
    error: a.error === null ? null : orderError(a.error),
    started_at: a.started_at,
    finished_at: a.finished_at,
  };
}

/** An action's error with keys in document order: source, status, then what it has by source, message. */
function orderError(e: ActionError): ActionError {
  switch (e.source) {
    case "api":
      return { source: e.source, status: e.status, code: e.code, api_code: e.api_code, message: e.message };
    case "transport":
      return { source: e.source, status: e.status, cause: e.cause, message: e.message };
    case "campaignctl":
      return { source: e.source, status: e.status, code: e.code, message: e.message };
  }
}
