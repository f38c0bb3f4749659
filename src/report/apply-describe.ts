/**
 * Wording shared by the apply reports (terminal, Markdown, JUnit): symbols and words per action
 * status, each action's details, durations and the summary line. Pure; tolerant of timestamps it
 * cannot parse (it prints them as given).
 */

import { DateTime } from "luxon";
import { emailSucceeded } from "../apply/email-result.js";
import type {
  ActionError,
  ActionResult,
  ActionResultStatus,
  ApplyResult,
  ScheduleEffect,
} from "../apply/types.js";
import { formatDuration } from "../text/duration.js";
import { describeZonedTime, formatCount, plural } from "./plan-describe.js";

/** ASCII symbol per action result status (legend in the report header and docs/reports.md). */
export const APPLY_SYMBOL: Readonly<Record<ActionResultStatus, string>> = {
  done: "+",
  replayed: "=",
  failed: "x",
  skipped: "-",
  blocked: "!",
  deferred: "~",
  "not-started": ".",
  unknown: "?",
};

/** The status as a word in prose (`not-started` reads "not started"). */
export const APPLY_STATUS_WORD: Readonly<Record<ActionResultStatus, string>> = {
  done: "done",
  replayed: "replayed",
  failed: "failed",
  skipped: "skipped",
  blocked: "blocked",
  deferred: "deferred",
  "not-started": "not started",
  unknown: "unknown",
};

/** Every status in report order (the legend's order). */
export const APPLY_STATUSES: readonly ActionResultStatus[] = [
  "done",
  "replayed",
  "failed",
  "skipped",
  "blocked",
  "deferred",
  "not-started",
  "unknown",
];

/** The legend: each symbol and its status word. */
export const APPLY_LEGEND: readonly (readonly [string, string])[] = APPLY_STATUSES.map((s) => [
  APPLY_SYMBOL[s],
  APPLY_STATUS_WORD[s],
]);

/** What a replayed action means, in every report. */
export const REPLAYED_TEXT = "already done by an earlier run; nothing sent twice";

/** Said of every action whose outcome is unknown at the end of the run. */
export const UNKNOWN_TEXT = "re-run apply: it is safe (the same idempotency key replays if it took effect)";

/** Said of a not-started action whose result gives no reason. */
export const NOT_STARTED_TEXT = "the run was interrupted before this action started";

/**
 * How the run as a whole ended: `refused` (nothing attempted), `interrupted` (Ctrl-C), `failed` (an
 * action failed, or a project the files ask something of was unreadable), `incomplete` (nothing
 * failed, but actions were blocked, skipped or of unknown outcome), else
 * `complete` (every action done, replayed or deferred).
 */
export type ApplyOutcome = "refused" | "interrupted" | "failed" | "incomplete" | "complete";

export function applyOutcome(result: ApplyResult): ApplyOutcome {
  if (result.refused.length > 0) return "refused";
  if (result.interrupted) return "interrupted";
  const s = result.summary;
  if (s.failed > 0 || result.unreadable.length > 0 || (s.email_lists?.failed ?? 0) > 0) return "failed";
  if (s.blocked > 0 || s.skipped > 0 || s.not_started > 0 || s.unknown > 0 || !emailSucceeded(result)) {
    return "incomplete";
  }
  return "complete";
}

/** `; email lists: 1 synced, 0 failed` (skipped and not synced when any), or "" without email. */
function emailCounts(result: ApplyResult): string {
  const e = result.summary.email_lists;
  if (e === undefined) return "";
  const parts = [
    `${formatCount(e.synced)} synced`,
    `${formatCount(e.failed)} failed`,
    ...(e.skipped > 0 ? [`${formatCount(e.skipped)} skipped (email not available)`] : []),
    ...(e.not_sent > 0 ? [`${formatCount(e.not_sent)} not synced`] : []),
  ];
  return `; email lists: ${parts.join(", ")}`;
}

/** How a detail's label is shown: `bad` (error, blocked) red, `wait` (deferred) cyan, `note` yellow, `plain`. */
export type DetailTone = "plain" | "bad" | "wait" | "note";

/**
 * One detail of an action result. `label` is empty for a detail that is a sentence of its own;
 * `prose` is campaignctl's wording (may be wrapped), otherwise the text comes from the API or the
 * user and is shown as is (never wrapped).
 */
export interface ActionDetail {
  readonly label: string;
  readonly text: string;
  readonly tone: DetailTone;
  readonly prose: boolean;
}

const detail = (label: string, text: string, tone: DetailTone, prose: boolean): ActionDetail => ({
  label,
  text,
  tone,
  prose,
});

/** `HTTP 400 VALIDATION_ERROR: message`, or `timeout: message` when there was no HTTP answer. */
export function describeError(error: ActionError): string {
  const status = error.status === null ? "" : `HTTP ${error.status} `;
  return `${status}${errorCodeOf(error)}: ${error.message}`;
}

/**
 * The code an action error is shown by: the API's code as it sent it (its class when it sent none),
 * the transport's cause, or our diagnostic code.
 */
export function errorCodeOf(error: ActionError): string {
  switch (error.source) {
    case "api":
      return error.api_code ?? error.code;
    case "transport":
      return error.cause;
    case "campaignctl":
      return error.code;
  }
}

/** `2026-11-07 18:30 America/Los_Angeles (2026-11-08 02:30 UTC), daily cap bypass off`. */
export function describeScheduleEffect(schedule: ScheduleEffect): string {
  const bypass = schedule.daily_cap_bypass ? "daily cap bypass ON" : "daily cap bypass off";
  return `${describeZonedTime(schedule.local_time, schedule.scheduled_timezone)}, ${bypass}`;
}

/**
 * Facts that follow the status word: `project now awaiting_test` when the status after is known,
 * `2 attempts` when there were retries (a failed action's attempts are among its details instead).
 */
export function headlineFacts(a: ActionResult): string[] {
  const facts: string[] = [];
  if (a.status_after !== null) facts.push(`project now ${a.status_after}`);
  if (a.attempts > 1 && a.status !== "failed") facts.push(plural(a.attempts, "attempt"));
  return facts;
}

/** The first line's text after the id: `done, project now scheduled, 2 attempts`. */
export function describeHeadline(a: ActionResult): string {
  return [APPLY_STATUS_WORD[a.status], ...headlineFacts(a)].join(", ");
}

/** What the reports say about an action under its headline, in order. */
export function actionDetails(a: ActionResult): readonly ActionDetail[] {
  const out: ActionDetail[] = [];
  const effects = (): void => {
    for (const m of a.test_messages)
      out.push(detail("test message", `${m.test_message_id} to ${m.sent_to}`, "plain", false));
    if (a.schedule !== null)
      out.push(detail("scheduled for", describeScheduleEffect(a.schedule), "plain", false));
    if (a.resolution !== null) {
      out.push(detail("resolution", a.resolution, "note", true));
    }
  };
  const why = (tone: DetailTone, fallback: string): void => {
    const text = a.reason === "" ? fallback : a.reason;
    if (text !== "") out.push(detail("why", text, tone, true));
  };
  switch (a.status) {
    case "done":
      effects();
      why("plain", "");
      break;
    case "replayed":
      // The executor's reason says the same as REPLAYED_TEXT, in other words.
      out.push(detail("", REPLAYED_TEXT, "plain", true));
      effects();
      break;
    case "failed": {
      if (a.error !== null) out.push(detail("error", describeError(a.error), "bad", false));
      const key = a.idempotency_key === null ? "" : `, idempotency key ${a.idempotency_key}`;
      out.push(
        detail("attempts", `${formatCount(a.attempts)}${key}; project ${a.project_id}`, "plain", false),
      );
      effects();
      why("plain", "");
      break;
    }
    case "skipped":
      why("note", "an action it depends on did not go ahead");
      break;
    case "blocked":
      why("bad", "the plan blocked it");
      break;
    case "deferred":
      why("wait", "it waits for something outside campaignctl");
      break;
    case "not-started":
      why("plain", NOT_STARTED_TEXT);
      break;
    case "unknown": {
      if (a.error !== null) out.push(detail("error", describeError(a.error), "note", false));
      const key = a.idempotency_key === null ? "" : `, idempotency key ${a.idempotency_key}`;
      out.push(
        detail("attempts", `${formatCount(a.attempts)}${key}; project ${a.project_id}`, "plain", false),
      );
      effects();
      why("note", "");
      out.push(detail("next", UNKNOWN_TEXT, "note", true));
      break;
    }
  }
  return out;
}

/** Milliseconds from `start` to `end` (ISO 8601), or null when either is missing or unparseable. */
export function durationMs(start: string | null, end: string | null): number | null {
  if (start === null || end === null) return null;
  const a = DateTime.fromISO(start, { setZone: true });
  const b = DateTime.fromISO(end, { setZone: true });
  if (!a.isValid || !b.isValid) return null;
  return Math.max(0, b.toMillis() - a.toMillis());
}

/** The outcome's opening words. */
export function outcomeTitle(outcome: ApplyOutcome): string {
  switch (outcome) {
    case "refused":
      return "Apply refused";
    case "interrupted":
      return "Apply interrupted";
    case "failed":
      return "Apply failed";
    case "incomplete":
      return "Apply incomplete";
    case "complete":
      return "Apply complete";
  }
}

/**
 * The closing line: `Apply complete: 3 done, 1 replayed, 0 failed, 1 deferred. 12 API requests,
 * 0 rate-limited, 0s waiting for the rate limit.` Skipped, blocked and not-started counts are added
 * when not zero; a refused run says that nothing was sent instead of counts.
 */
export function applySummaryLine(result: ApplyResult): string {
  const outcome = applyOutcome(result);
  const s = result.summary;
  const counts =
    outcome === "refused"
      ? "the plan was not applied; nothing was sent"
      : [
          `${formatCount(s.done)} done`,
          `${formatCount(s.replayed)} replayed`,
          `${formatCount(s.failed)} failed`,
          `${formatCount(s.deferred)} deferred`,
          ...(s.skipped > 0 ? [`${formatCount(s.skipped)} skipped`] : []),
          ...(s.blocked > 0 ? [`${formatCount(s.blocked)} blocked`] : []),
          ...(s.not_started > 0 ? [`${formatCount(s.not_started)} not started`] : []),
          ...(s.unknown > 0 ? [`${formatCount(s.unknown)} unknown`] : []),
          ...(result.unreadable.length > 0
            ? [
                `${formatCount(result.unreadable.length)} unreadable project${result.unreadable.length === 1 ? "" : "s"}`,
              ]
            : []),
        ].join(", ") + emailCounts(result);
  const r = result.requests;
  return (
    `${outcomeTitle(outcome)}: ${counts}. ${plural(r.total, "API request")}, ` +
    `${formatCount(r.rate_limited_429)} rate-limited, ${formatDuration(r.rate_limit_wait_ms)} waiting for the rate limit.`
  );
}

/** One line per unreadable project: `gotv-reminder (p_123, desired scheduled): HTTP 500 ...`. */
export function describeUnreadable(u: ApplyResult["unreadable"][number]): string {
  return `${u.address} (${u.project_id}, desired ${u.desired}): ${u.message}`;
}

/** The heading over the unreadable projects, in every report. */
export const UNREADABLE_TITLE =
  "Projects the files ask something of that could not be read (nothing was judged or sent for them; the run fails):";

/** Said of a refused plan's actions: `None of the plan's 8 actions was started.` */
export function noneStarted(actions: number): string {
  return actions === 1
    ? "The plan's one action was not started."
    : `None of the plan's ${formatCount(actions)} actions was started.`;
}

/** `1 retry` / `3 retries`. */
export function describeRetries(retries: number): string {
  return plural(retries, "retry", "retries");
}
