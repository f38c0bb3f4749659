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
 *   counters), and **trips at most once per project in a run while it sends**. A tripped guard
 *   **stays tripped until the project stops sending**: its pause is `pending` from the trip on,
 *   tried on every poll (same key) until it lands (the project reads `paused`), the project ends
 *   (`completed` or any other status that does not send), or the run ends. A read that fails leaves
 *   it pending: "not yet known", never "give up". A landed pause holds only until a read shows the
 *   project sending again (started again in the dashboard, or after the daily cap's pause settled
 *   it): it is judged again from that read on, and a trip pauses it again (a new pause, keyed on
 *   the version read after that trip).
 */
import type { GuardSpec } from "../campaign/model.js";
import type { ProjectFigures } from "../status/figures.js";
import { isSending } from "../status/sending.js";
import { type GuardName, type GuardTrip, type Judged, judgeGuard } from "./guard-judge.js";
import { guardPauseReason } from "./guard-reason.js";

/**
 * Where a tripped guard's pause stands. Invariants: `key` is null only while no read of the project
 * succeeded since the trip (no pause was sent yet); once set it never changes in the run (every try
 * replays the same key); `attempts` counts the pause requests sent in the run, over all tries.
 * - `pending`: not landed yet; `lastError` says why (null before the first try).
 * - `landed`: the project read `paused` after (or instead of) our pause.
 * - `ended`: the project stopped sending (completed, or another status) before the pause landed.
 */
export type PauseState =
  | {
      readonly phase: "pending";
      readonly guard: GuardName;
      readonly reason: string;
      readonly key: string | null;
      readonly attempts: number;
      readonly lastError: string | null;
    }
  | {
      readonly phase: "landed";
      readonly guard: GuardName;
      readonly reason: string;
      readonly key: string | null;
      readonly attempts: number;
      /** The API answered our pause from its idempotency store (an earlier or concurrent run's pause). */
      readonly replayed: boolean;
      readonly pauseReason: string | null;
    }
  | {
      readonly phase: "ended";
      readonly guard: GuardName;
      readonly reason: string;
      readonly key: string | null;
      readonly attempts: number;
      readonly status: string;
      readonly pauseReason: string | null;
    };

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
  /** Its guard's pause, from the trip on (it is never judged again); null while not tripped. */
  readonly pause: PauseState | null;
}

/** Its guard tripped in this run. */
export function isTripped(f: Followed): boolean {
  return f.pause !== null;
}

/** Projects whose pause is still pending, in file order. */
export function pendingPauses(state: WatchState): Followed[] {
  return [...state.values()].filter((f) => f.pause?.phase === "pending");
}

/** Every project of the files, in file order. */
export type WatchState = ReadonlyMap<string, Followed>;

export function initialState(targets: readonly WatchTarget[]): WatchState {
  const state = new Map<string, Followed>();
  for (const target of targets)
    if (!state.has(target.id)) state.set(target.id, { target, figures: null, watched: false, pause: null });
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
    // A landed pause held until the project sends again (started again in the dashboard): from
    // then on it is judged again, as the next run would judge it, and a trip pauses it again.
    let pause = sending && followed.pause?.phase === "landed" ? null : followed.pause;
    const guard = followed.target.guard;
    if (sending && pause === null && guard !== null && fresh.source === "statistics") {
      const verdict = judgeGuard(fresh, guard);
      if (verdict.kind === "tripped") {
        const trip = verdict.trips[0];
        pause = {
          phase: "pending",
          guard: trip.guard,
          reason: guardPauseReason(trip),
          key: null,
          attempts: 0,
          lastError: null,
        };
        trips.push({ target: followed.target, figures: fresh, trip });
      }
    }
    const after: Followed = { target: followed.target, figures: fresh, watched, pause };
    next.set(id, after);
    if (sending && !followed.watched) started.push(after);
    if (watched && (followed.figures === null || !sameFigures(followed.figures, fresh))) changed.push(after);
  }
  return { state: next, changed, started, trips };
}

/**
 * Watched projects still sending: what `--until-done` waits for. A project whose pause landed or
 * ended is not sending, whatever the last statistics row said; one whose pause is pending is.
 */
export function stillSending(state: WatchState): number {
  let n = 0;
  for (const f of state.values()) if (f.watched && sendingNow(f)) n++;
  return n;
}

/** Whether a project sends, by its pause first, else by its latest figures. */
export function sendingNow(f: Followed): boolean {
  if (f.pause?.phase === "landed" || f.pause?.phase === "ended") return false;
  return isSending(f.figures?.status ?? null);
}

/** How a project's guard judges its latest figures. */
export function judgedOf(followed: Followed): Judged {
  const guard = followed.target.guard;
  if (guard === null) return "no-guard";
  if (followed.pause !== null) return "tripped";
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
