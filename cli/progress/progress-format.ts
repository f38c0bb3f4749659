/**
 * Pure formatters of apply progress: one line per event (for logs and CI, on stderr), each headed by
 * the time since the run started, and a live view (running, waiting, retried, the count of each
 * outcome, elapsed, the time left by the rate budget, rate-limit wait) folded from the events for a
 * terminal, every line of it fitted to the terminal's width (`progress-fit.ts`). Elapsed times come
 * from the caller's stopwatch (`progress-clock.ts`), never from the events' `at` (the API's clock,
 * for the journal). No IO here; `progress.ts` writes.
 */
import {
  type ActionResultStatus,
  type ApplyEvent,
  type ApplySummary,
  countOutcomes,
  outcomeCountKey,
} from "../../src/apply/index.js";
import { APPLY_STATUS_WORD, APPLY_STATUSES } from "../../src/report/apply-describe.js";
import { formatDuration } from "../../src/text/duration.js";
import { elapsedPrefix } from "./progress-clock.js";
import { estimateText, estimateTimeLeft } from "./progress-estimate.js";
import { fitLine, fitList } from "./progress-fit.js";

/** The counts line: every outcome, zeros included, so the counts add up to the actions ended. */
export function formatCounts(counts: ApplySummary): string {
  return APPLY_STATUSES.map((s) => `${counts[outcomeCountKey(s)]} ${APPLY_STATUS_WORD[s]}`).join(", ");
}

/**
 * One line for an event, `elapsedMs` after the run started (`+1.5s a.test: done`), or null for
 * events too fine-grained to print one by one.
 */
export function formatEventLine(event: ApplyEvent, elapsedMs: number): string | null {
  const text = formatEventText(event);
  return text === null ? null : `${elapsedPrefix(elapsedMs)} ${text}`;
}

/** What a line says of an event, without its time; null for events not printed one by one. */
export function formatEventText(event: ApplyEvent): string | null {
  switch (event.type) {
    case "run-start":
      return `apply: ${event.sendable} of ${event.actions} actions to send, ${event.parallelism} at a time${event.wait_for_approval_ms === null ? "" : `, waiting up to ${formatDuration(event.wait_for_approval_ms)} for test approvals`}`;
    case "action-start":
      return `${event.id}: started`;
    case "send":
      return event.send === 1 ? null : `${event.id}: sending again with the same key (send ${event.send})`;
    case "response":
      if (event.outcome === "ok")
        return `${event.id}: HTTP ${event.status}${event.replayed ? " (replayed)" : ""}`;
      return `${event.id}: ${event.status === null ? event.code : `HTTP ${event.status} ${event.code ?? ""}`.trim()}, outcome ${event.outcome === "unknown" ? "unknown: re-reading the project" : "none"}`;
    case "resolution":
      return `${event.id}: ${event.text}`;
    case "backoff":
      return `${event.id}: ${event.reason === "resend" ? "sending again" : "re-reading"} in ${formatDuration(event.delay_ms)}`;
    case "waiting":
      return `${event.id}: waiting for the test approval (project ${event.live_status ?? "unreadable"}); next check in ${formatDuration(event.next_poll_ms)}`;
    case "action-end":
      return `${event.id}: ${event.status}${event.error === null ? "" : `: ${event.error.message}`}${event.resolution === null ? "" : ` (${event.resolution})`}`;
    case "interrupt":
      return `interrupted: ${event.in_flight} request(s) in flight will finish; nothing new starts (Ctrl-C again to abort at once)`;
    case "run-end":
      return `apply ${event.interrupted ? "interrupted" : "finished"}: ${formatCounts(event.summary)}`;
    case "api":
      switch (event.event.type) {
        case "retry":
          return `${event.event.route}: ${event.event.reason}, retrying in ${formatDuration(event.event.delayMs)}`;
        case "wait":
          return event.event.ms >= 1000 ? `rate limit: waited ${formatDuration(event.event.ms)}` : null;
        case "wait-start": // said once by the session's notice (rate-limit-notice.ts)
        case "request-start":
        case "request-end":
          return null;
      }
  }
}

/**
 * What the live view shows, folded from events. Invariant: `finished` is `ended.size`; an action
 * that ends again (an unknown outcome settled by a later read) is counted once, by its last outcome.
 */
export interface ProgressState {
  readonly total: number;
  readonly running: ReadonlySet<string>;
  readonly waiting: ReadonlySet<string>;
  readonly finished: number;
  /** The outcome each ended action ended with, by action id. */
  readonly ended: ReadonlyMap<string, ActionResultStatus>;
  readonly retried: number;
  /** API requests started since the run started (for the estimate of the time left). */
  readonly requests: number;
  readonly rateLimitWaitMs: number;
  readonly interrupted: boolean;
  /** What the last line said of the last action that ended (without its time). */
  readonly last: string | null;
}

export const INITIAL_PROGRESS: ProgressState = {
  total: 0,
  running: new Set(),
  waiting: new Set(),
  finished: 0,
  ended: new Map(),
  retried: 0,
  requests: 0,
  rateLimitWaitMs: 0,
  interrupted: false,
  last: null,
};

function without(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(set);
  next.delete(id);
  return next;
}

export function foldProgress(state: ProgressState, event: ApplyEvent): ProgressState {
  switch (event.type) {
    case "run-start":
      return { ...state, total: event.actions, requests: 0 };
    case "action-start":
      return {
        ...state,
        running: new Set([...state.running, event.id]),
        waiting: without(state.waiting, event.id),
      };
    case "waiting":
      return { ...state, waiting: new Set([...state.waiting, event.id]) };
    case "backoff":
      return { ...state, retried: state.retried + 1 };
    case "action-end": {
      const ended = new Map(state.ended).set(event.id, event.status);
      return {
        ...state,
        running: without(state.running, event.id),
        waiting: without(state.waiting, event.id),
        finished: ended.size,
        ended,
        last: formatEventText(event),
      };
    }
    case "interrupt":
      return { ...state, interrupted: true };
    case "api":
      if (event.event.type === "wait")
        return { ...state, rateLimitWaitMs: state.rateLimitWaitMs + event.event.ms };
      if (event.event.type === "retry") return { ...state, retried: state.retried + 1 };
      if (event.event.type === "request-start") return { ...state, requests: state.requests + 1 };
      return state;
    case "send":
    case "response":
    case "resolution":
    case "run-end":
      return state;
  }
}

/** What the live view is drawn for: the terminal's width, and the rate budget of the keys in use. */
export interface LiveView {
  readonly columns: number;
  /** Requests a minute the keys in use may make (0: none used yet, no estimate). */
  readonly perMinute: number;
}

/** The counts of the outcomes that happened (`-` for none), for the live view's narrow rows. */
function liveCounts(ended: ProgressState["ended"]): string {
  const counts = countOutcomes(ended.values());
  const shown = APPLY_STATUSES.filter((s) => counts[outcomeCountKey(s)] > 0).map(
    (s) => `${counts[outcomeCountKey(s)]} ${APPLY_STATUS_WORD[s]}`,
  );
  return shown.length === 0 ? "-" : shown.join(", ");
}

/**
 * The live view's lines, `elapsedMs` after the run started. Invariant: each fits one row of a
 * terminal `view.columns` wide (so redrawing moves up exactly the rows drawn), and the lines only
 * grow in number during a run.
 */
export function renderLive(state: ProgressState, elapsedMs: number, view: LiveView): readonly string[] {
  const estimate = estimateTimeLeft({ ...state, perMinute: view.perMinute });
  const time = [
    `${formatDuration(Math.max(0, elapsedMs))} elapsed`,
    ...(estimate === undefined ? [] : [estimateText(estimate, view.perMinute)]),
    `${formatDuration(state.rateLimitWaitMs)} rate-limit wait`,
  ];
  const lines = [
    `Applying: ${state.finished}/${state.total} finished, ${state.running.size} running, ${state.waiting.size} waiting for approval, ${state.retried} retried`,
    ...(state.interrupted ? ["  INTERRUPTED: requests in flight finish, nothing new starts"] : []),
    `  time: ${time.join(", ")}`,
    `  finished: ${liveCounts(state.ended)}`,
  ].map((line) => fitLine(line, view.columns));
  lines.push(fitList("  running: ", [...state.running], view.columns));
  if (state.last !== null) lines.push(fitLine(`  last: ${state.last}`, view.columns));
  return lines;
}
