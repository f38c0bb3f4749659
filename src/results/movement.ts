/**
 * What happened to a project between two instants, from its snapshots (docs/results.md "How a
 * period is counted"). A project's lifetime counters at an instant are those of its latest snapshot
 * before it (0 before its first snapshot); what happened in `[a, b)` is the difference between the
 * two. So the buckets of a period add up exactly to the period, and a period's figures are the
 * statistics the API gave at the last recording before its end, less those before its start. Pure.
 */

import { parseCostE4 } from "../status/money.js";
import type { ResultsSnapshot } from "./snapshot.js";

/** Counts of one project or group over a stretch of time. Money in e4 (ten-thousandths of a dollar). */
export interface ResultsFigures {
  readonly sent: number;
  readonly delivered: number;
  readonly failed: number;
  readonly optedOut: number;
  readonly replies: number;
  /** `total_url_clicks`. */
  readonly clicks: number;
  /** `unique_url_clicks`. */
  readonly uniqueClicks: number;
  readonly costE4: number;
}

export const ZERO: ResultsFigures = {
  sent: 0,
  delivered: 0,
  failed: 0,
  optedOut: 0,
  replies: 0,
  clicks: 0,
  uniqueClicks: 0,
  costE4: 0,
};

/** A snapshot's lifetime figures. */
export function figuresOf(s: ResultsSnapshot): ResultsFigures {
  return {
    sent: s.messages_sent,
    delivered: s.messages_delivered,
    failed: s.messages_failed,
    optedOut: s.messages_opted_out,
    replies: s.replies_received,
    clicks: s.total_url_clicks,
    uniqueClicks: s.unique_url_clicks,
    // The schema allows only "D.DDDD": always a whole number of e4.
    costE4: parseCostE4(s.actual_cost) ?? 0,
  };
}

export function add(a: ResultsFigures, b: ResultsFigures): ResultsFigures {
  return {
    sent: a.sent + b.sent,
    delivered: a.delivered + b.delivered,
    failed: a.failed + b.failed,
    optedOut: a.optedOut + b.optedOut,
    replies: a.replies + b.replies,
    clicks: a.clicks + b.clicks,
    uniqueClicks: a.uniqueClicks + b.uniqueClicks,
    costE4: a.costE4 + b.costE4,
  };
}

function subtract(a: ResultsFigures, b: ResultsFigures): ResultsFigures {
  return {
    sent: a.sent - b.sent,
    delivered: a.delivered - b.delivered,
    failed: a.failed - b.failed,
    optedOut: a.optedOut - b.optedOut,
    replies: a.replies - b.replies,
    clicks: a.clicks - b.clicks,
    uniqueClicks: a.uniqueClicks - b.uniqueClicks,
    costE4: a.costE4 - b.costE4,
  };
}

/**
 * One project's snapshots in time order (by `at`). Invariant: non-empty, one project id; `last` is
 * the latest snapshot (its name, organization and `created_at` name the project).
 */
export interface History {
  readonly id: string;
  readonly snapshots: readonly ResultsSnapshot[];
  readonly times: readonly number[];
  readonly last: ResultsSnapshot;
}

/** The histories of `snapshots`, by project id. */
export function histories(snapshots: readonly ResultsSnapshot[]): Map<string, History> {
  const by = new Map<string, ResultsSnapshot[]>();
  for (const s of snapshots) {
    const list = by.get(s.project_id) ?? [];
    list.push(s);
    by.set(s.project_id, list);
  }
  const out = new Map<string, History>();
  for (const [id, list] of by) {
    list.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    const last = list[list.length - 1] as ResultsSnapshot;
    out.set(id, { id, snapshots: list, times: list.map((s) => Date.parse(s.at)), last });
  }
  return out;
}

/** The index of the latest snapshot before `ms`, or -1. */
function indexBefore(h: History, ms: number): number {
  let lo = 0;
  let hi = h.times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((h.times[mid] as number) < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The project's lifetime figures just before `ms` (zero before its first snapshot). */
export function figuresBefore(h: History, ms: number): ResultsFigures {
  const i = indexBefore(h, ms);
  return i < 0 ? ZERO : figuresOf(h.snapshots[i] as ResultsSnapshot);
}

/** What happened in `[startMs, endMs)`. */
export function movement(h: History, startMs: number, endMs: number): ResultsFigures {
  return subtract(figuresBefore(h, endMs), figuresBefore(h, startMs));
}

/** Whether the project has a snapshot in `[startMs, endMs)` (something of it changed then). */
export function changedIn(h: History, startMs: number, endMs: number): boolean {
  const i = indexBefore(h, endMs);
  return i >= 0 && (h.times[i] as number) >= startMs;
}

/**
 * Whether the period counts figures from before it: the project was created before `startMs` and
 * has no snapshot before it, so its first snapshot's whole figures fall in the period.
 */
export function countsFromBefore(h: History, startMs: number): boolean {
  return indexBefore(h, startMs) < 0 && Date.parse(h.last.created_at) < startMs;
}
