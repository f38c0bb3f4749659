/**
 * What `watch` knows between polls, and what one poll changes. Pure: the loop (`watch-loop.ts`)
 * reads, hands the reads to {@link observe}, and acts on what it returns.
 *
 * Rules:
 * - A project is **watched** from the first poll that sees it sending (`scheduled` or `active`,
 *   `isSending`); one paused at the start (by a guard of an earlier run, the daily cap, a person) is
 *   not watched, so a restarted watch never pauses or reports it again.
 * - A watched project's **progress** is reported whenever its status or a counter changes, also
 *   after it stops sending (receipts and opt-outs still arrive).
 * - A guard is judged only while its project is sending, on statistics (never on unknown
 *   counters), and **trips at most once per project in a run**: after a trip it is never judged
 *   again, whatever its pause came to.
 */
import type { GuardSpec } from "../campaign/model.js";
import type { ProjectFigures } from "../status/figures.js";
import { isSending } from "../status/sending.js";
import { type GuardTrip, judgeGuard } from "./guard-judge.js";
import type { Judged } from "./watch-events.js";

/** One project of the campaign files that watch follows. */
export interface WatchTarget {
  readonly id: string;
  readonly address: string;
  /** Its guard (`guard:` of the project or the defaults), or null for progress only. */
  readonly guard: GuardSpec | null;
}

/** What watch knows of one project. */
export interface Followed {
  readonly target: WatchTarget;
  /** The figures of the latest poll that read it; null before any. */
  readonly figures: ProjectFigures | null;
  /** Seen sending in this run. */
  readonly watched: boolean;
  /** Its guard tripped in this run (it is never judged again). */
  readonly tripped: boolean;
}

/** Every project of the files, in file order. */
export type WatchState = ReadonlyMap<string, Followed>;

export function initialState(targets: readonly WatchTarget[]): WatchState {
  const state = new Map<string, Followed>();
  for (const target of targets)
    if (!state.has(target.id))
      state.set(target.id, { target, figures: null, watched: false, tripped: false });
  return state;
}

/** A guard that tripped on a poll: the project, its figures then, and the first trip. */
export interface TripFound {
  readonly target: WatchTarget;
  readonly figures: ProjectFigures;
  readonly trip: GuardTrip;
}

export interface Observed {
  readonly state: WatchState;
  /** Watched projects whose status or counters changed (or that were seen for the first time). */
  readonly changed: readonly Followed[];
  /** Projects that started sending on this poll. */
  readonly started: readonly Followed[];
  readonly trips: readonly TripFound[];
}

/**
 * Folds one poll's figures (by project id; a project the poll did not read keeps its last figures)
 * into the state.
 */
export function observe(state: WatchState, figures: ReadonlyMap<string, ProjectFigures>): Observed {
  const next = new Map<string, Followed>();
  const changed: Followed[] = [];
  const started: Followed[] = [];
  const trips: TripFound[] = [];
  for (const [id, followed] of state) {
    const fresh = figures.get(id);
    if (fresh === undefined) {
      next.set(id, followed);
      continue;
    }
    const sending = isSending(fresh.status);
    const watched = followed.watched || sending;
    let tripped = followed.tripped;
    const guard = followed.target.guard;
    if (sending && !tripped && guard !== null && fresh.source === "statistics") {
      const verdict = judgeGuard(fresh, guard);
      if (verdict.kind === "tripped") {
        tripped = true;
        trips.push({ target: followed.target, figures: fresh, trip: verdict.trips[0] });
      }
    }
    const after: Followed = { target: followed.target, figures: fresh, watched, tripped };
    next.set(id, after);
    if (sending && !followed.watched) started.push(after);
    if (watched && (followed.figures === null || !sameFigures(followed.figures, fresh))) changed.push(after);
  }
  return { state: next, changed, started, trips };
}

/** Watched projects still sending: what `--until-done` waits for. */
export function stillSending(state: WatchState): number {
  let n = 0;
  for (const f of state.values()) if (f.watched && isSending(f.figures?.status ?? null)) n++;
  return n;
}

/** How a project's guard judges its latest figures. */
export function judgedOf(followed: Followed): Judged {
  const guard = followed.target.guard;
  if (guard === null) return "no-guard";
  if (followed.tripped) return "tripped";
  if (followed.figures === null) return "unknown";
  const verdict = judgeGuard(followed.figures, guard).kind;
  return verdict === "tripped" ? "above" : verdict;
}

function sameFigures(a: ProjectFigures, b: ProjectFigures): boolean {
  return (
    a.status === b.status &&
    a.source === b.source &&
    a.recipients === b.recipients &&
    a.sent === b.sent &&
    a.delivered === b.delivered &&
    a.failed === b.failed &&
    a.optedOut === b.optedOut
  );
}
