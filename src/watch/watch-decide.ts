/**
 * The pure steps of one poll of `watch` (as apply's `decide.ts` is to its loop): the loop reads,
 * hands the reads here, and performs what comes back; nothing here does IO or reads a clock.
 *
 * - {@link planReadsById}: which projects to read by id on this poll, within the budget's room:
 *   sending projects no row lists first, then projects never read yet (file order); the rest is
 *   carried to later polls.
 * - {@link decidePoll}: state + the poll's reads -> the next state, the events to report (progress,
 *   notes, warnings) and the pauses to try (every pending pause, the new trips included).
 * - {@link settleTry}: state + what one try of a pause came to -> the next state and its event.
 * - {@link pendingAtStop}, {@link neverReadAtStop}: what the stop says of pauses still pending and
 *   of projects no read found.
 */
import { type ApiError, apiErrorDiagnostic } from "../api/index.js";
import { sampleReachable } from "../campaign/model.js";
import type { Project, ProjectStatsRow } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { LiveRead } from "../plan/live.js";
import { type ProjectFigures, projectFigures } from "../status/figures.js";
import type { StatusRange } from "../status/range.js";
import { readProblem } from "../status/read-live.js";
import { isSending } from "../status/sending.js";
import { rounded } from "../text/fraction.js";
import type { PauseTry, PauseTryResult } from "./guard-pause.js";
import { GUARD_KEY, pauseLine, projectLine, type WatchEvent, type WatchProjectLine } from "./watch-events.js";
import {
  type Followed,
  judgedOf,
  observe,
  type PauseState,
  pendingPauses,
  sendingNow,
  type TripFound,
  type WatchState,
} from "./watch-state.js";

/** An event before the loop stamps it with `at` and `elapsed_ms`. */
export type Unstamped = WatchEvent extends infer E
  ? E extends WatchEvent
    ? Omit<E, "at" | "elapsed_ms">
    : never
  : never;

/** Which projects a poll reads by id, and how many wait for a later poll. */
export interface ReadsById {
  readonly ids: readonly string[];
  readonly carried: number;
}

/**
 * Projects to read by id, at most `room`: watched projects sending (pause not landed) that no row
 * lists, then projects never read (no figures yet) that no row lists, in file order.
 */
export function planReadsById(
  state: WatchState,
  rows: ReadonlyMap<string, ProjectStatsRow>,
  room: number,
): ReadsById {
  const urgent: string[] = [];
  const unread: string[] = [];
  for (const f of state.values()) {
    if (rows.has(f.target.id)) continue;
    if (f.watched && sendingNow(f)) urgent.push(f.target.id);
    else if (f.figures === null) unread.push(f.target.id);
  }
  const all = [...urgent, ...unread];
  const ids = all.slice(0, Math.max(0, room));
  return { ids, carried: all.length - ids.length };
}

/** What one poll read. */
export interface PollReads {
  readonly rows: ReadonlyMap<string, ProjectStatsRow>;
  readonly details: ReadonlyMap<string, LiveRead<Project>>;
  readonly organizationNames: ReadonlyMap<string, string>;
  /** The stats range read, for the words of a first read's problems. */
  readonly range: StatusRange;
}

/** What a poll decided. `pauses`: every pause pending after this poll's figures, in file order. */
export interface Decision {
  readonly state: WatchState;
  readonly events: readonly Unstamped[];
  readonly trips: readonly TripFound[];
  readonly pauses: readonly PauseTry[];
  /** Projects newly warned that their guard can never judge them (kept by the loop). */
  readonly warned: ReadonlySet<string>;
  /**
   * Projects no read of this run has found yet whose latest read failed, with that failure's words
   * (kept by the loop): a project read since is not in it. What is left at the stop is an error
   * (`neverReadAtStop`): watch could not judge those projects.
   */
  readonly unread: ReadonlyMap<string, string>;
}

/** Folds one poll's reads into the state (see the module comment). */
export function decidePoll(
  state: WatchState,
  reads: PollReads,
  warned: ReadonlySet<string>,
  unread: ReadonlyMap<string, string>,
): Decision {
  const stillUnread = new Map(unread);
  const events: Unstamped[] = [];
  const note = (diagnostic: Diagnostic): void => {
    events.push({ type: "diagnostic", diagnostic });
  };
  const figures = new Map<string, ProjectFigures>();
  for (const [id, f] of state) {
    const row = reads.rows.get(id);
    const detail = reads.details.get(id);
    if (row === undefined && detail === undefined) continue;
    if (row === undefined && detail !== undefined && detail.kind !== "found") {
      if (f.figures === null) {
        // Never read before: a project of the files that cannot be found is an error (as in status),
        // a failed read is tried again on a later poll (and said at the stop if none succeeds).
        if (detail.kind === "error") {
          stillUnread.set(id, `${detail.code}: ${detail.message}`);
          continue;
        }
        const problem = readProblem(id, detail, false, reads.range);
        if (problem !== undefined) note(problem);
      } else if (f.watched && sendingNow(f)) {
        // A read that failed is "not known yet", never "gone": the project keeps its last figures
        // (still sending, so read again on the next poll). Only a 404 or 403 ends its watch.
        if (detail.kind === "error") {
          note(readFailed(f.target.address, detail));
          continue;
        }
        note(unreadable(f.target.address, detail));
      }
    }
    const made = projectFigures({
      id,
      address: f.target.address,
      row,
      detail,
      organizationNames: reads.organizationNames,
    });
    for (const d of made.diagnostics) note(d);
    figures.set(id, made.figures);
    stillUnread.delete(id);
  }
  const observed = observe(state, figures);
  let next = observed.state;
  for (const f of observed.started)
    if (f.target.guard === null)
      note({
        severity: "info",
        code: "watch.no-guard",
        message: `${f.target.address}: it has no guard: watch shows its progress and never pauses it`,
        hint: "give it (or the file's defaults) a guard with max_failure_rate or max_opt_out_rate",
      });
  const nowWarned = new Set(warned);
  for (const f of observed.changed) {
    events.push({ type: "progress", project: lineOf(f) });
    const unreachable = sampleUnreachable(f);
    if (unreachable !== null && !nowWarned.has(f.target.id)) {
      nowWarned.add(f.target.id);
      note(unreachable);
    }
  }
  // A pending pause whose project a row now shows not sending is settled by that read.
  const newlyTripped = new Set(observed.trips.map((t) => t.target.id));
  for (const f of pendingPauses(next)) {
    if (newlyTripped.has(f.target.id) || f.pause === null || f.pause.phase !== "pending") continue;
    const status = f.figures?.status ?? null;
    if (status === null || isSending(status)) continue;
    const settled: PauseState =
      status === "paused"
        ? { ...f.pause, phase: "landed", replayed: false, pauseReason: null }
        : { ...f.pause, phase: "ended", status, pauseReason: null };
    const after: Followed = { ...f, pause: settled };
    next = withFollowed(next, after);
    events.push(pauseEvent(after));
    if (settled.phase === "ended") events.push(endedNote(f.target.address, settled.reason, status));
  }
  const pauses = pendingPauses(next).map(pauseTryOf);
  return { state: next, events, trips: observed.trips, pauses, warned: nowWarned, unread: stillUnread };
}

function pauseTryOf(f: Followed): PauseTry {
  const pause = f.pause;
  if (pause === null || pause.phase !== "pending")
    throw new Error(`watch: no pending pause for ${f.target.id}`);
  return { id: f.target.id, guard: pause.guard, reason: pause.reason, key: pause.key };
}

/**
 * Folds what one try came to into the state. `trip`: the trip this try followed on the same poll
 * (its event is `tripped`), else the event is `pause`.
 */
export function settleTry(
  state: WatchState,
  result: PauseTryResult,
  id: string,
  trip: TripFound | null,
): { readonly state: WatchState; readonly event: Unstamped; readonly notes: readonly Unstamped[] } {
  const f = state.get(id);
  if (f === undefined || f.pause === null) throw new Error(`watch: no pause to settle for ${id}`);
  const attempts = f.pause.attempts + result.sends;
  const key = f.pause.key ?? result.key;
  const { reason, guard } = f.pause;
  const common = { guard, reason, key, attempts };
  let pause: PauseState;
  switch (result.outcome) {
    case "landed":
      pause = { ...common, phase: "landed", replayed: result.replayed, pauseReason: result.pauseReason };
      break;
    case "ended":
      pause = { ...common, phase: "ended", status: result.status, pauseReason: result.pauseReason };
      break;
    case "pending":
      pause = { ...common, phase: "pending", lastError: result.error };
      break;
  }
  const after: Followed = { ...f, pause };
  const next = withFollowed(state, after);
  const notes = pause.phase === "ended" ? [endedNote(after.target.address, pause.reason, pause.status)] : [];
  if (trip === null) return { state: next, event: pauseEvent(after), notes };
  return {
    state: next,
    notes,
    event: {
      type: "tripped",
      project: projectLine(trip.figures, trip.target.address, trip.target.guard, "tripped"),
      guard: GUARD_KEY[trip.trip.guard],
      rate: rounded(trip.trip.rate, 4),
      count: trip.trip.rate.numerator,
      of: trip.trip.rate.denominator,
      limit: trip.trip.limit,
      reason,
      pause: pauseLine(pause),
    },
  };
}

/**
 * A guard tripped, but its project stopped sending otherwise before the pause landed: the net did
 * not hold (every message the guard meant to stop went out), so it is an error (exit 1, design.md
 * Turn 4: 0 only when no guard tripped, 2 only when the pause landed), never a quiet warning.
 */
function endedNote(address: string, reason: string, status: string): Unstamped {
  return {
    type: "diagnostic",
    diagnostic: {
      severity: "error",
      code: "watch.ended-before-pause",
      message: `${address}: its guard tripped (${reason}), but it was ${status} before its pause landed: not paused, the rest of its send went out`,
      hint: "nothing is left to pause; check its figures (campaignctl status) and its cause before the next send",
    },
  };
}

function pauseEvent(f: Followed): Unstamped {
  if (f.pause === null) throw new Error(`watch: no pause for ${f.target.id}`);
  return { type: "pause", project: lineOf(f), reason: f.pause.reason, pause: pauseLine(f.pause) };
}

/** Error diagnostics for the pauses still pending when the run stops. */
export function pendingAtStop(state: WatchState): Diagnostic[] {
  return pendingPauses(state).flatMap((f) => {
    const pause = f.pause;
    if (pause === null || pause.phase !== "pending") return [];
    return [
      {
        severity: "error",
        code: "watch.pause-pending",
        message: `${f.target.address}: its guard tripped (${pause.reason}) and its pause is still pending as the run ends (${pendingWords(pause.attempts, pause.lastError)}); the project may still be sending`,
        hint: "pause it in the dashboard now; a new watch run retries the same pause (same key while the project is unchanged)",
      },
    ];
  });
}

/**
 * The projects of the files no read of the run found because their reads failed (`unread`, from
 * {@link decidePoll}): one error each at the stop, since watch never judged their guards and they
 * may be sending (a key that could not be used, the API failing every read of them).
 */
/**
 * The projects never read after a poll whose statistics could not be read (`error`): each project
 * with no figures yet is unread with that failure (an earlier failure of its own stays), so that a
 * run whose every poll failed ends with `watch.project-never-read` for them, never in silence.
 */
export function unreadAfter(
  state: WatchState,
  unread: ReadonlyMap<string, string>,
  error: ApiError,
): ReadonlyMap<string, string> {
  const out = new Map(unread);
  for (const f of state.values())
    if (f.figures === null && !out.has(f.target.id)) out.set(f.target.id, apiErrorDiagnostic(error).message);
  return out;
}

export function neverReadAtStop(state: WatchState, unread: ReadonlyMap<string, string>): Diagnostic[] {
  return [...state.values()].flatMap((f) => {
    const failure = unread.get(f.target.id);
    if (failure === undefined || f.figures !== null) return [];
    return [
      {
        severity: "error",
        code: "watch.project-never-read",
        message: `${f.target.address}: no read of it succeeded in this run (last error: ${failure}); its guard never judged it and it may be sending`,
        hint: "fix what the error names (the key of its organization, the API's answer) and watch again; pause it in the dashboard if it sends unguarded",
      },
    ];
  });
}

/** `attempt 3, last error: ...`: how a pending pause is described in every view. */
export function pendingWords(attempts: number, lastError: string | null): string {
  const tried = attempts === 0 ? "not sent yet" : `attempt ${attempts}`;
  return lastError === null ? tried : `${tried}, last error: ${lastError}`;
}

function withFollowed(state: WatchState, f: Followed): WatchState {
  const map = new Map(state);
  map.set(f.target.id, f);
  return map;
}

export function lineOf(f: Followed): WatchProjectLine {
  if (f.figures === null) throw new Error(`watch: no figures for ${f.target.id}`);
  const line = projectLine(f.figures, f.target.address, f.target.guard, judgedOf(f));
  // A landed pause is known from a read by id before the next row shows it.
  return f.pause?.phase === "landed" && f.figures.status !== "paused" ? { ...line, status: "paused" } : line;
}

/**
 * A warning when a sending project has fewer recipients than its guard's sample: the guard can
 * never judge it (recipients are known once its audience is compiled, when it goes active).
 */
function sampleUnreachable(f: Followed): Diagnostic | null {
  const guard = f.target.guard;
  const recipients = f.figures?.recipients ?? null;
  if (guard === null || recipients === null || recipients === 0 || sampleReachable(guard, recipients))
    return null;
  if (!isSending(f.figures?.status ?? null)) return null;
  return {
    severity: "warning",
    code: "watch.sample-unreachable",
    message: `${f.target.address}: its guard judges after ${guard.minSample} messages sent, but it has ${recipients} recipients: the guard can never trip`,
    hint: `give its guard a min_sample below ${recipients} in the campaign file to judge this send`,
  };
}

function unreadable(
  label: string,
  detail: Extract<LiveRead<Project>, { kind: "not-found" } | { kind: "forbidden" }>,
): Diagnostic {
  const why = detail.kind === "not-found" ? "404" : `403: ${detail.message}`;
  return {
    severity: "warning",
    code: "watch.project-unreadable",
    message: `${label}: it was sending, but no statistics row lists it and it could not be read by id (${why}); it is no longer watched`,
    hint: "check the project in the dashboard",
  };
}

/** A sending project no row lists whose read by id failed on this poll: read again on the next. */
function readFailed(label: string, detail: Extract<LiveRead<Project>, { kind: "error" }>): Diagnostic {
  return {
    severity: "warning",
    code: "watch.project-read-failed",
    message: `${label}: it is sending, but no statistics row lists it and its read by id failed on this poll (${detail.code}: ${detail.message}); its last figures are kept and it is read again on the next poll`,
    hint: "nothing to do if the next poll reads it; if this repeats, check the API's status",
  };
}

/** A poll that could not read the statistics (not the first): the next one tries again. */
export function pollFailed(error: ApiError): Diagnostic {
  return {
    severity: "warning",
    code: "watch.poll-failed",
    message: `a poll could not read the statistics: ${apiErrorDiagnostic(error).message}`,
    hint: "watch polls again at the next interval; nothing was judged on this poll (a pending pause is still tried)",
  };
}
