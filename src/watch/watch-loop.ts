/**
 * The loop of `campaignctl watch`: poll the statistics of the campaign files' projects, report
 * their progress, pause a project whose guard tripped, wait, again. It does IO only through the
 * endpoint functions it is handed, and time only through the injected clock, sleep and signal.
 *
 * 1. The first poll is a status read (`readStatusLive`: organizations, the stats windows newest
 *    first, older ones only while a project of the files has no row, a project no row lists read by
 *    id); the next ones are `readPoll` (the newest window, one page per 1,000 rows).
 * 2. Each poll's figures (`projectFigures`, the figures and rates of `status`) are folded into the
 *    state (`watch-state.ts`): progress of what changed, guards judged (`guard-judge.ts`).
 * 3. A trip is paused at once (`guard-pause.ts`: read, keyed pause with apply's retry rules,
 *    re-read), then reported once (`tripped`); the project is never judged again in the run.
 * 4. Then it stops (`--once`; `--until-done` when no watched project is still sending; Ctrl-C;
 *    an error that no later poll can mend: a 401 or 403) or waits (`watch-pace.ts`) and polls again.
 */
import { type ApiError, apiErrorDiagnostic, type Sleep } from "../api/index.js";
import { sleepUnlessAborted } from "../api/write-retry.js";
import type { Project, ProjectStatsRow } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { NO_CACHE } from "../plan/cache.js";
import type { LiveRead } from "../plan/live.js";
import { type ProjectFigures, projectFigures } from "../status/figures.js";
import { rounded } from "../status/fraction.js";
import { readStatusLive, type StatusReader } from "../status/read-live.js";
import { isSending } from "../status/sending.js";
import { type PausePort, pauseForGuard } from "./guard-pause.js";
import { guardPauseReason } from "./guard-reason.js";
import {
  GUARD_KEY,
  pauseLine,
  projectLine,
  type StopReason,
  WATCH_FORMAT_VERSION,
  type WatchEvent,
  type WatchProjectLine,
  type WatchUntil,
} from "./watch-events.js";
import { pollWaitMs } from "./watch-pace.js";
import { readPoll } from "./watch-poll.js";
import {
  type Followed,
  initialState,
  judgedOf,
  type Observed,
  observe,
  stillSending,
  type TripFound,
  type WatchState,
  type WatchTarget,
} from "./watch-state.js";

/** The endpoint functions watch uses: status's reads and the pause. */
export type WatchPort = StatusReader & PausePort;

export interface WatchInput {
  readonly port: WatchPort;
  /** The projects of the campaign files, in file order. */
  readonly targets: readonly WatchTarget[];
  readonly until: WatchUntil;
  /** `--interval`, already checked against the minimum. */
  readonly intervalMs: number;
  /** The API's clock (the `at` of every event, the stats windows). */
  readonly now: () => Date;
  /** Milliseconds since the run started, on this machine's clock (the `elapsed_ms` of every event). */
  readonly elapsedMs: () => number;
  /** The waits between polls and between pause attempts (the client keeps its own). */
  readonly sleep: Sleep;
  /** Ctrl-C: the current poll (and a pause in flight) ends, nothing new starts. */
  readonly signal: AbortSignal;
  /** HTTP requests the client has sent so far (its statistics), to count each poll's. */
  readonly requests: () => number;
  readonly onEvent: (event: WatchEvent) => void;
  /** Attempts of one pause in total (default 5, as apply). */
  readonly maxSends?: number;
  /** First wait between two pause attempts (default 1 s, as apply). */
  readonly backoffMs?: number;
}

/** How a run ended. Invariant: `paused <= tripped`; `errors` counts error diagnostics. */
export interface WatchSummary {
  readonly reason: StopReason;
  readonly polls: number;
  readonly requests: number;
  readonly tripped: number;
  readonly paused: number;
  readonly errors: number;
}

export async function runWatch(input: WatchInput): Promise<WatchSummary> {
  const { port, targets, signal } = input;
  const firstRequest = input.requests();
  const addressOf = new Map(targets.map((t) => [t.id, t.address]));
  let polls = 0;
  let tripped = 0;
  let paused = 0;
  let errors = 0;
  const stamp = () => ({ at: input.now().toISOString(), elapsed_ms: Math.max(0, input.elapsedMs()) });
  const emit = input.onEvent;
  const note = (diagnostic: Diagnostic): void => {
    if (diagnostic.severity === "error") errors++;
    emit({ type: "diagnostic", ...stamp(), diagnostic });
  };
  const stop = (reason: StopReason): WatchSummary => {
    const summary = { reason, polls, requests: input.requests() - firstRequest, tripped, paused, errors };
    emit({ type: "stop", ...stamp(), ...summary });
    return summary;
  };

  // Poll 1: the status read.
  let pollStart = input.requests();
  const first = await readStatusLive({
    reader: port,
    selection: { files: targets.map((t) => ({ id: t.id, address: t.address })), all: false },
    since: undefined,
    now: input.now,
    estimates: false,
    cache: NO_CACHE,
    refresh: true,
  });
  if (!first.ok) {
    for (const d of first.diagnostics) note(d);
    return stop("error");
  }
  polls = 1;
  let reads = input.requests() - pollStart;
  let pages = first.reads.statsPages;
  let byId = first.reads.projectsReadById;
  const names = new Map(first.organizations.map((o) => [o.id, o.display_name]));
  const figuresOf = (
    rows: ReadonlyMap<string, ProjectStatsRow>,
    details: ReadonlyMap<string, LiveRead<Project>>,
    diagnostics: Diagnostic[],
  ): Map<string, ProjectFigures> => {
    const out = new Map<string, ProjectFigures>();
    for (const [id, address] of addressOf) {
      const row = rows.get(id);
      const detail = details.get(id);
      if (row === undefined && detail === undefined) continue;
      const made = projectFigures({ id, address, row, detail, organizationNames: names });
      diagnostics.push(...made.diagnostics);
      out.set(id, made.figures);
    }
    return out;
  };
  const firstDiagnostics: Diagnostic[] = [...first.diagnostics];
  let observed: Observed = observe(
    initialState(targets),
    figuresOf(first.rows, first.details, firstDiagnostics),
  );
  let state: WatchState = observed.state;
  emit({
    type: "start",
    format_version: WATCH_FORMAT_VERSION,
    ...stamp(),
    interval_ms: input.intervalMs,
    until: input.until,
    projects: [...state.values()].flatMap((f) =>
      f.figures === null ? [] : [{ ...lineOf(f), sending: isSending(f.figures.status) }],
    ),
  });
  for (const d of firstDiagnostics) note(d);
  if (stillSending(state) === 0)
    note({
      severity: "info",
      code: "watch.nothing-sending",
      message: "no project of the campaign files is sending (scheduled or active) now",
      hint:
        input.until === "interrupted"
          ? "watch goes on polling: a project scheduled later is watched from then on"
          : "schedule the projects with campaignctl apply, then watch them",
    });

  /** Projects already warned that their guard can never judge them. */
  const warned = new Set<string>();
  for (;;) {
    for (const f of observed.started)
      if (f.target.guard === null)
        note({
          severity: "info",
          code: "watch.no-guard",
          message: `${f.target.address}: it has no guard: watch shows its progress and never pauses it`,
          hint: "give it (or the file's defaults) a guard with max_failure_rate or max_opt_out_rate",
        });
    for (const f of observed.changed) {
      emit({ type: "progress", ...stamp(), project: lineOf(f) });
      const unreachable = sampleUnreachable(f);
      if (unreachable !== null && !warned.has(f.target.id)) {
        warned.add(f.target.id);
        note(unreachable);
      }
    }
    for (const found of observed.trips) state = await handleTrip(found, state);
    const sending = stillSending(state);
    const reason = stopReason(sending);
    const wait = pollWaitMs(input.intervalMs, reads);
    emit({
      type: "poll",
      ...stamp(),
      poll: polls,
      stats_pages: pages,
      projects_read_by_id: byId,
      requests: input.requests() - pollStart,
      sending,
      next_poll_ms: reason === null ? wait : null,
    });
    if (reason !== null) return stop(reason);
    await sleepUnlessAborted(input.sleep, wait, signal);
    if (signal.aborted) return stop("interrupted");

    // Poll 2 and later.
    pollStart = input.requests();
    polls++;
    const sendingIds = new Set(
      [...state.values()].filter((f) => isSending(f.figures?.status ?? null)).map((f) => f.target.id),
    );
    const read = await readPoll(port, input.now(), new Set(state.keys()), sendingIds);
    reads = input.requests() - pollStart;
    if (!read.ok) {
      pages = 0;
      byId = 0;
      if (fatal(read.error)) {
        note(apiErrorDiagnostic(read.error));
        return stop("error");
      }
      note(pollFailed(read.error));
      observed = { state, changed: [], started: [], trips: [] };
      continue;
    }
    pages = read.statsPages;
    byId = read.projectsReadById;
    const diagnostics: Diagnostic[] = [];
    const fresh = figuresOf(read.rows, read.details, diagnostics);
    for (const [id, detail] of read.details)
      if (detail.kind !== "found") diagnostics.push(unreadable(addressOf.get(id) ?? id, detail));
    for (const d of diagnostics) note(d);
    observed = observe(state, fresh);
    state = observed.state;
  }

  function lineOf(f: Followed): WatchProjectLine {
    if (f.figures === null) throw new Error(`watch: no figures for ${f.target.id}`);
    return projectLine(f.figures, f.target.address, f.target.guard, judgedOf(f));
  }

  function stopReason(sending: number): StopReason | null {
    if (input.until === "once") return "once";
    if (signal.aborted) return "interrupted";
    if (input.until === "done" && sending === 0) return "done";
    return null;
  }

  /** Pauses a tripped project, reports the trip once, and returns the state after. */
  async function handleTrip(found: TripFound, current: WatchState): Promise<WatchState> {
    const reason = guardPauseReason(found.trip);
    const result = await pauseForGuard(found.target.id, reason, {
      port,
      sleep: input.sleep,
      signal,
      ...(input.maxSends === undefined ? {} : { maxSends: input.maxSends }),
      ...(input.backoffMs === undefined ? {} : { backoffMs: input.backoffMs }),
    });
    tripped++;
    let next = current;
    switch (result.outcome) {
      case "paused": {
        paused++;
        // Confirmed by the re-read: no longer sending, whatever the last row said.
        const f = current.get(found.target.id);
        if (f !== undefined && f.figures !== null) {
          const map = new Map(current);
          map.set(found.target.id, { ...f, figures: { ...f.figures, status: "paused" } });
          next = map;
        }
        break;
      }
      case "not-sending":
        note({
          severity: "info",
          code: "watch.ended-before-pause",
          message: `${found.target.address}: its guard tripped (${reason}), but it was ${result.status} when read just before the pause: not paused`,
          hint: "nothing to do: it no longer sends",
        });
        break;
      case "failed":
      case "unknown":
        note(result.diagnostic);
        break;
    }
    emit({
      type: "tripped",
      ...stamp(),
      project: projectLine(found.figures, found.target.address, found.target.guard, "tripped"),
      guard: GUARD_KEY[found.trip.guard],
      rate: rounded(found.trip.rate, 4),
      count: found.trip.rate.numerator,
      of: found.trip.rate.denominator,
      limit: found.trip.limit,
      reason,
      pause: pauseLine(result),
    });
    return next;
  }
}

/**
 * A warning when a sending project has fewer recipients than its guard's sample: the guard can
 * never judge it (recipients are known once its audience is compiled, when it goes active).
 */
function sampleUnreachable(f: Followed): Diagnostic | null {
  const guard = f.target.guard;
  const recipients = f.figures?.recipients ?? null;
  if (guard === null || recipients === null || recipients === 0 || recipients >= guard.minSample) return null;
  if (!isSending(f.figures?.status ?? null)) return null;
  return {
    severity: "warning",
    code: "watch.sample-unreachable",
    message: `${f.target.address}: its guard judges after ${guard.minSample} messages sent, but it has ${recipients} recipients: the guard can never trip`,
    hint: `give its guard a min_sample below ${recipients} in the campaign file to judge this send`,
  };
}

function unreadable(label: string, detail: Exclude<LiveRead<Project>, { kind: "found" }>): Diagnostic {
  const why =
    detail.kind === "not-found"
      ? "404"
      : detail.kind === "forbidden"
        ? `403: ${detail.message}`
        : `${detail.code}: ${detail.message}`;
  return {
    severity: "warning",
    code: "watch.project-unreadable",
    message: `${label}: it was sending, but no statistics row lists it and it could not be read by id (${why}); it is no longer watched`,
    hint: "check the project in the dashboard",
  };
}

/** A 401 or 403: no later poll can succeed with this key. */
function fatal(error: ApiError): boolean {
  return error.kind === "http" && (error.status === 401 || error.status === 403);
}

function pollFailed(error: ApiError): Diagnostic {
  return {
    severity: "warning",
    code: "watch.poll-failed",
    message: `a poll could not read the statistics: ${apiErrorDiagnostic(error).message}`,
    hint: "watch polls again at the next interval; nothing was judged on this poll",
  };
}
