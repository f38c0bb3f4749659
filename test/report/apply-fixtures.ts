/**
 * Hand-built apply results for the report tests (the executor is not needed). `fullApplyResult()`
 * is an interrupted run holding every action status: a done test with test messages (masked
 * numbers), a deferred schedule, a done schedule whose outcome was unknown and was resolved by
 * re-reading (its UTC date differs from the local one), a replayed pause, a test that failed with a
 * 400 and details, the schedule skipped after it, a blocked schedule and a not-started test.
 * `completeApplyResult()` is a clean run; `refusedApplyResult()` a stale plan refused before anything
 * was sent (reasons and codes worded as the executor words them, `src/apply/`); `hugeApplyResult(n)` has n actions for the truncation tests. API and user text carries
 * Markdown, HTML and XML specials to exercise escaping.
 */
import { summarizeResults } from "../../src/apply/result.js";
import type { ActionResult, ApplyResult } from "../../src/apply/types.js";
import { key } from "./fixtures.js";

const BASE_URL = "https://api.politicalcomms.com/v1";

function pid(n: number): string {
  return `9a000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
}

/** An action result with nothing attempted; `p` sets what differs. */
function result(
  p: Partial<ActionResult> & Pick<ActionResult, "address" | "kind" | "status" | "project_id">,
): ActionResult {
  return {
    id: `${p.address}.${p.kind}`,
    reason: "",
    attempts: 0,
    idempotency_key: null,
    resolution: null,
    status_after: null,
    test_messages: [],
    schedule: null,
    error: null,
    started_at: null,
    finished_at: null,
    ...p,
  };
}

export function fullActions(): ActionResult[] {
  return [
    result({
      address: "gotv-reminder",
      project_id: pid(1),
      kind: "test",
      status: "done",
      attempts: 1,
      idempotency_key: key("gotv-reminder.test"),
      status_after: "awaiting_test",
      reason: "the project is in draft and must be test-sent before it can leave draft",
      test_messages: [
        { test_message_id: "7e000000-0000-4000-8000-000000000001", sent_to: "+1503****188" },
        { test_message_id: "7e000000-0000-4000-8000-000000000002", sent_to: "+1503****199" },
      ],
      started_at: "2026-11-20T14:05:01.000Z",
      finished_at: "2026-11-20T14:05:01.412Z",
    }),
    result({
      address: "gotv-reminder",
      project_id: pid(1),
      kind: "schedule",
      status: "deferred",
      reason:
        "waits for the test send to be approved in the dashboard; a later apply (or apply --wait-for-approval) schedules it",
    }),
    result({
      address: "weekend-canvass",
      project_id: pid(5),
      kind: "schedule",
      status: "done",
      attempts: 2,
      idempotency_key: key("weekend-canvass.schedule"),
      reason: "the file wants the project scheduled; it is ready",
      resolution:
        "re-read: status scheduled, updated_at 2026-11-20T14:05:04Z (was ready, updated_at 2026-11-19T16:04:05Z); the schedule took effect",
      status_after: "scheduled",
      schedule: {
        scheduled_at: "2026-11-07T18:30:00-08:00",
        scheduled_timezone: "America/Los_Angeles",
        local_time: "2026-11-07T18:30:00-08:00",
        utc_time: "2026-11-08T02:30:00Z",
        daily_cap_bypass: false,
      },
      started_at: "2026-11-20T14:05:01.500Z",
      finished_at: "2026-11-20T14:05:07.250Z",
    }),
    result({
      address: "early-vote-push",
      project_id: pid(4),
      kind: "pause",
      status: "replayed",
      reason: "already done with this key (an earlier or concurrent run); the API replayed its answer",
      attempts: 1,
      idempotency_key: key("early-vote-push.pause"),
      status_after: "paused",
      started_at: "2026-11-20T14:05:07.300Z",
      finished_at: "2026-11-20T14:05:07.380Z",
    }),
    result({
      address: "volunteer-recruitment",
      project_id: pid(3),
      kind: "test",
      status: "failed",
      reason: "the API refused the test",
      attempts: 1,
      idempotency_key: key("volunteer-recruitment.test"),
      error: {
        source: "api",
        status: 400,
        code: "UNLISTED",
        api_code: "validation_error",
        message:
          "test_contacts[1].phone: \"+1503555019\" is not E.164 <expected +1 & 10 digits>; merge value 'first_name' = `*Dana*` | @field-team #12",
      },
      started_at: "2026-11-20T14:05:07.400Z",
      finished_at: "2026-11-20T14:05:07.610Z",
    }),
    result({
      address: "volunteer-recruitment",
      project_id: pid(3),
      kind: "schedule",
      status: "skipped",
      reason: "it depends on volunteer-recruitment.test, which ended failed",
    }),
    result({
      address: "rally-invite",
      project_id: pid(7),
      kind: "schedule",
      status: "blocked",
      reason:
        "the live project differs from the file (message, contact_lists), and the API cannot edit projects",
    }),
    result({
      address: "flyer-blast",
      project_id: pid(6),
      kind: "test",
      status: "not-started",
      reason: "interrupted (Ctrl-C) before it started",
    }),
    result({
      address: "canvass-reminder",
      project_id: pid(7),
      kind: "test",
      status: "unknown",
      reason: "no effect seen after 5 sends whose outcome was unknown; it may still take effect",
      attempts: 5,
      idempotency_key: "cc1-Unknown0utcomeKeyForTheGoldenFile000000000",
      error: {
        source: "campaignctl",
        status: 504,
        code: "apply.outcome-unknown",
        message: "Gateway timeout",
      },
      started_at: "2026-11-20T14:05:05Z",
      finished_at: "2026-11-20T14:05:09Z",
    }),
  ];
}

/** An interrupted run with every action status. */
export function fullApplyResult(): ApplyResult {
  const actions = fullActions();
  return {
    format_version: 1,
    tool_version: "0.1.0",
    base_url: BASE_URL,
    plan_created_at: "2026-11-20T14:00:00Z",
    started_at: "2026-11-20T14:05:00Z",
    finished_at: "2026-11-20T14:05:09.400Z",
    interrupted: true,
    refused: [],
    actions,
    requests: {
      total: 12,
      by_endpoint: {
        "POST /projects/{id}/test": 2,
        "GET /projects/{id}": 7,
        "POST /projects/{id}/schedule": 2,
        "POST /projects/{id}/pause": 1,
      },
      retries: 1,
      rate_limited_429: 1,
      rate_limit_wait_ms: 1500,
    },
    basis_reads: 2,
    unreadable: [
      {
        address: "phone-bank",
        project_id: pid(8),
        desired: "paused",
        message: "phone-bank: GET /projects/{id} answered 500 internal_error: Internal server error",
      },
    ],
    summary: summarizeResults(actions),
    journal: ".campaignctl/journal/2026-11-20T14-05-00Z.jsonl",
  };
}

/** A clean run: done, replayed and deferred actions only. */
export function completeApplyResult(): ApplyResult {
  const full = fullApplyResult();
  const actions = full.actions.filter((a) => ["done", "replayed", "deferred"].includes(a.status));
  return {
    ...full,
    interrupted: false,
    actions,
    requests: { ...full.requests, retries: 0, rate_limited_429: 0, rate_limit_wait_ms: 0 },
    basis_reads: 0,
    unreadable: [],
    summary: summarizeResults(actions),
  };
}

/** A stale plan refused before anything was sent: the blocked action blocked, the others not started. */
export function refusedApplyResult(): ApplyResult {
  const actions = fullActions().map((a) =>
    result({
      address: a.address,
      project_id: a.project_id,
      kind: a.kind,
      status: a.status === "blocked" ? "blocked" : "not-started",
      reason: "the plan was refused",
    }),
  );
  return {
    ...fullApplyResult(),
    finished_at: "2026-11-20T14:05:00.900Z",
    interrupted: false,
    refused: [
      {
        severity: "error",
        code: "apply.plan-stale",
        message:
          "gotv-reminder: the live project changed since the plan was made (status draft -> awaiting_test, updated_at 2026-11-19T16:04:05Z -> 2026-11-20T14:03:11Z)",
        hint: "make the plan again (`campaignctl plan --out plan.json`), review it, and apply that",
      },
      {
        severity: "error",
        code: "apply.files-changed",
        message:
          "campaigns/gotv.yaml changed since the plan was made (sha256 b4f324ada367 in the plan, 0c1d2e3f4a5b now) <&>",
        range: {
          file: "campaigns/gotv.yaml",
          start: { line: 1, column: 1, offset: 0 },
          end: { line: 1, column: 11, offset: 10 },
        },
      },
    ],
    actions,
    requests: {
      total: 6,
      by_endpoint: { "GET /projects/{id}": 6 },
      retries: 0,
      rate_limited_429: 0,
      rate_limit_wait_ms: 0,
    },
    basis_reads: 0,
    unreadable: [],
    summary: summarizeResults(actions),
    journal: null,
  };
}

/**
 * `count` actions in a run that failed: every 50th (from the second) a failed test and the next a
 * schedule skipped after it; the rest alternately done tests and deferred schedules.
 */
export function hugeApplyResult(count: number): ApplyResult {
  const actions: ActionResult[] = [];
  for (let i = 0; i < count; i++) {
    const address = `rally-invite-${i}`;
    const project_id = pid(100000 + i);
    if (i % 50 === 1) {
      actions.push(
        result({
          address,
          project_id,
          kind: "test",
          status: "failed",
          attempts: 3,
          idempotency_key: key(`${address}.test`),
          error: {
            source: "campaignctl",
            status: 503,
            code: "api.server-error",
            message: "Service Unavailable; retries ran out",
          },
        }),
      );
    } else if (i % 50 === 2) {
      const reason = `it depends on rally-invite-${i - 1}.test, which ended failed`;
      actions.push(result({ address, project_id, kind: "schedule", status: "skipped", reason }));
    } else if (i % 2 === 0) {
      const test_message_id = `7e000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
      actions.push(
        result({
          address,
          project_id,
          kind: "test",
          status: "done",
          attempts: 1,
          idempotency_key: key(`${address}.test`),
          status_after: "awaiting_test",
          test_messages: [{ test_message_id, sent_to: "+1503****188" }],
        }),
      );
    } else {
      const reason = "waits for the test send to be approved in the dashboard";
      actions.push(result({ address, project_id, kind: "schedule", status: "deferred", reason }));
    }
  }
  return { ...fullApplyResult(), interrupted: false, actions, summary: summarizeResults(actions) };
}
