/**
 * The loop of `campaignctl watch`: poll the statistics of the campaign files' projects, report
 * their progress, pause a project whose guard tripped, wait, again. It does IO only through the
 * endpoint functions it is handed, and time only through the injected clock, sleep and signal;
 * every judgement is the pure step of `watch-decide.ts`.
 *
 * One poll:
 * 1. Statistics (`watch-poll.ts` `readStats`): the first poll also reads `GET /organizations` and
 *    older windows while a project of the files has no row; later polls the newest window.
 * 2. Reads by id (`planReadsById`), only as the budget allows (`watch-budget.ts`): watch's requests
 *    (the polls' reads and the retries of pending pauses) keep within 40 in any 60 seconds; what does
 *    not fit is carried to later polls.
 * 3. `decidePoll`: figures folded into the state, progress and notes, guards judged; a trip makes
 *    the project's pause pending.
 * 4. Every pending pause is tried once, all at once (`guard-pause.ts` `tryPause`, the one write
 *    executor, same key every time) and settled (`settleTry`): landed, ended, or still pending for
 *    the next poll. A read that fails leaves it pending; nothing gives up. The tries' requests are
 *    recorded in the budget; a trip's first try is never held back for it.
 * 5. Then it stops (`--once`; `--until-done` when no watched project is still sending, a pending
 *    pause counting as sending; Ctrl-C; an error no later poll can mend: a 401 or 403) or waits
 *    (`watch-pace.ts`, and until the budget has room for the next poll's pages and for what this
 *    poll's tries of the pauses still pending and its other checks, `alsoPoll`, cost) and polls again.
 *    A pause still pending at the stop is an error (`watch.pause-pending`), and so is a project of
 *    the files no read of the run found (`watch.project-never-read`).
 */
import { type ApiError, apiErrorDiagnostic, type Sleep } from "../api/index.js";
import { sleepUnlessAborted, WRITE_FIRST_BACKOFF_MS, WRITE_MAX_ATTEMPTS } from "../api/write-retry.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { statusRange } from "../status/range.js";
import { type PausePort, tryPause } from "./guard-pause.js";
import { byIdRoom, type ReadLedger, recordReads, waitForRoomMs } from "./watch-budget.js";
import {
  type Decision,
  decidePoll,
  lineOf,
  neverReadAtStop,
  type PollReads,
  pendingAtStop,
  planReadsById,
  pollFailed,
  settleTry,
  type Unstamped,
  unreadAfter,
} from "./watch-decide.js";
import { type StopReason, WATCH_FORMAT_VERSION, type WatchEvent, type WatchUntil } from "./watch-events.js";
import { endsAtOnce, nothingSendingNote, readsDeferredNote } from "./watch-notes.js";
import { POLL_READS_PER_MINUTE, pollWaitMs } from "./watch-pace.js";
import { type PollReader, readById, readStats } from "./watch-poll.js";
import { initialState, sendingNow, stillSending, type WatchState, type WatchTarget } from "./watch-state.js";

/** The endpoint functions watch uses: the poll's reads and the pause. */
export type WatchPort = PollReader & PausePort;

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
  /**
   * HTTP requests the session has sent so far (its statistics, every key's), to count each poll's;
   * the run's summary counts them all, the keys' checks before the first poll included.
   */
  readonly requests: () => number;
  /**
   * The count the budget is kept on (40 a minute per key): the busiest key's requests so far when
   * requests go with several keys (`busiestKeyRequests`); default `requests` (one key).
   */
  readonly budgetRequests?: () => number;
  readonly onEvent: (event: WatchEvent) => void;
  /** Attempts of one pause in total (default 5, as apply). */
  readonly maxSends?: number;
  /** First wait between two pause attempts (default 1 s, as apply). */
  readonly backoffMs?: number;
  /**
   * Other checks of each poll (email campaigns' guards, which the API cannot pause: alerts only);
   * their diagnostics are emitted, their requests count in the poll's budget, and what they still
   * see sending keeps `--until-done` polling.
   */
  readonly alsoPoll?: () => Promise<AlsoPolled>;
  /**
   * Diagnostics known before the first poll (routing's warnings: a key that could not be used, whose
   * organization's projects are not read): emitted once, after `start`, or before the error when the
   * first poll fails.
   */
  readonly notes?: readonly Diagnostic[];
}

/** What the other checks of a poll found (see `WatchInput.alsoPoll`). */
export interface AlsoPolled {
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Watched email campaigns still sending: `--until-done` goes on while this is above 0. Absent: the
   * check watches no email campaign (budgets, `--record`, keys checked again): no `email_sending`.
   */
  readonly sending?: number;
}

/** How a run ended. Invariant: `paused <= tripped`; `errors` counts error diagnostics. */
export interface WatchSummary {
  readonly reason: StopReason;
  readonly polls: number;
  readonly requests: number;
  readonly tripped: number;
  readonly paused: number;
  /** Guards' pauses still pending at the stop (each also an error diagnostic). */
  readonly pending: number;
  readonly errors: number;
}

/** What the loop carries from one poll to the next. */
interface Carried {
  readonly state: WatchState;
  readonly warned: ReadonlySet<string>;
  /** Projects never read whose latest read failed (`Decision.unread`). */
  readonly unread: ReadonlyMap<string, string>;
  readonly ledger: ReadLedger;
  readonly names: ReadonlyMap<string, string>;
  /** Stats pages a later poll is expected to read (for the budget's reserve). */
  readonly pagesPerPoll: number;
  /**
   * Requests the last poll's tries of the pauses still pending made: what the next poll's tries of
   * them are expected to cost, reserved in the budget before the poll starts and before its reads by id.
   */
  readonly pauseReserve: number;
  /** Requests the last poll's other checks made (`alsoPoll`), reserved with the pauses'. */
  readonly alsoReserve: number;
}

export async function runWatch(input: WatchInput): Promise<WatchSummary> {
  const { port, signal } = input;
  const budgetRequests = input.budgetRequests ?? input.requests;
  const maxSends = input.maxSends ?? WRITE_MAX_ATTEMPTS;
  const backoffMs = input.backoffMs ?? WRITE_FIRST_BACKOFF_MS;
  let errors = 0;
  const stamp = () => ({ at: input.now().toISOString(), elapsed_ms: Math.max(0, input.elapsedMs()) });
  const emit = (event: Unstamped): void => {
    if (event.type === "diagnostic" && event.diagnostic.severity === "error") errors++;
    input.onEvent({ ...event, ...stamp() } as WatchEvent);
  };
  const note = (diagnostic: Diagnostic): void => emit({ type: "diagnostic", diagnostic });
  const stop = (
    reason: StopReason,
    polls: number,
    state: WatchState,
    unread: ReadonlyMap<string, string>,
  ): WatchSummary => {
    for (const d of pendingAtStop(state)) note(d);
    for (const d of neverReadAtStop(state, unread)) note(d);
    const all = [...state.values()];
    const summary: WatchSummary = {
      reason,
      polls,
      requests: input.requests(),
      tripped: all.filter((f) => f.pause !== null).length,
      paused: all.filter((f) => f.pause?.phase === "landed").length,
      pending: all.filter((f) => f.pause?.phase === "pending").length,
      errors,
    };
    emit({ type: "stop", ...summary });
    return summary;
  };
  let carried: Carried = {
    state: initialState(input.targets),
    warned: new Set(),
    unread: new Map(),
    ledger: [],
    names: new Map(),
    pagesPerPoll: 1,
    pauseReserve: 0,
    alsoReserve: 0,
  };
  for (let poll = 1; ; poll++) {
    const pollStart = input.requests();
    const first = poll === 1;
    // 1 and 2. Statistics, then reads by id within the budget.
    const read = await readPollOnce(input, carried, first);
    const failed = read.kind === "failed" ? read.error : null;
    if (failed !== null && endsAtOnce(failed, first, input.until)) {
      if (first) for (const d of input.notes ?? []) note(d);
      note(apiErrorDiagnostic(failed));
      return stop("error", first ? 0 : poll, carried.state, carried.unread);
    }
    // 3. Decide (a failed read decides on nothing new, and leaves the projects never read unread;
    // pending pauses are still tried).
    const unread = failed === null ? carried.unread : unreadAfter(carried.state, carried.unread, failed);
    const decision = decidePoll(carried.state, read.reads, carried.warned, unread);
    if (first) {
      emitStart(decision.state);
      for (const d of input.notes ?? []) note(d);
    }
    if (failed !== null) note(pollFailed(failed));
    for (const e of decision.events) emit(e);
    if (first && read.deferred > 0) note(readsDeferredNote(read.deferred));
    // 4. Every pending pause, tried once; its requests count in the budget.
    const tried = await tryPending(decision);
    const state = tried.state;
    const beforeAlso = input.requests();
    const alsoPolled = await input.alsoPoll?.();
    for (const d of alsoPolled?.diagnostics ?? []) note(d);
    const also = input.requests() - beforeAlso;
    const email = alsoPolled?.sending;
    const emailSending = email ?? 0;
    // Not when some project could not be read: it may be sending (said at the stop).
    if (first && stillSending(state) + emailSending === 0 && decision.unread.size === 0)
      note(nothingSendingNote(email !== undefined, input.until));
    const ledger = recordReads(read.ledger, input.now().getTime(), tried.requests + also);
    // 5. Stop or wait: until the budget has room for the next poll's pages and its tries.
    const sending = stillSending(state);
    const reason = stopReason(sending + emailSending, failed === null);
    const nextPoll = Math.min(POLL_READS_PER_MINUTE, read.pagesPerPoll + tried.reserve + also);
    const wait = Math.max(read.pace, waitForRoomMs(ledger, input.now().getTime(), nextPoll));
    emit({
      type: "poll",
      poll,
      stats_pages: read.statsPages,
      projects_read_by_id: read.byId,
      projects_deferred: read.deferred,
      requests: input.requests() - pollStart,
      sending,
      ...(email === undefined ? {} : { email_sending: email }),
      next_poll_ms: reason === null ? wait : null,
    });
    if (reason !== null) return stop(reason, poll, state, decision.unread);
    carried = {
      state,
      warned: decision.warned,
      unread: decision.unread,
      ledger,
      names: read.reads.organizationNames,
      pagesPerPoll: read.pagesPerPoll,
      pauseReserve: tried.reserve,
      alsoReserve: also,
    };
    await sleepUnlessAborted(input.sleep, wait, signal);
    if (signal.aborted) return stop("interrupted", poll, state, decision.unread);
  }

  function emitStart(state: WatchState): void {
    emit({
      type: "start",
      format_version: WATCH_FORMAT_VERSION,
      interval_ms: input.intervalMs,
      until: input.until,
      projects: [...state.values()].flatMap((f) =>
        f.figures === null ? [] : [{ ...lineOf(f), sending: f.watched }],
      ),
    });
  }

  /**
   * One try of every pause the decision left pending, all at once (a pause waiting out its key's 429s
   * never holds back another organization's), settled in file order: the state after, the requests
   * the tries made, and the next poll's reserve (all of them while one is still pending).
   */
  async function tryPending(
    decision: Decision,
  ): Promise<{ state: WatchState; requests: number; reserve: number }> {
    let state = decision.state;
    if (signal.aborted) return { state, requests: 0, reserve: 0 };
    const before = budgetRequests();
    const deps = { port, sleep: input.sleep, signal, maxSends, backoffMs };
    const results = await Promise.all(decision.pauses.map((t) => tryPause(t, deps)));
    const requests = budgetRequests() - before;
    decision.pauses.forEach((t, i) => {
      const result = results[i];
      if (result === undefined) return;
      const trip = decision.trips.find((x) => x.target.id === t.id) ?? null;
      const settled = settleTry(state, result, t.id, trip);
      state = settled.state;
      emit(settled.event);
      for (const n of settled.notes) emit(n);
    });
    return { state, requests, reserve: results.some((r) => r.outcome === "pending") ? requests : 0 };
  }

  /** `read`: the poll read the statistics; one that could not says nothing of what sends (--until-done waits). */
  function stopReason(sending: number, read: boolean): StopReason | null {
    if (input.until === "once") return "once";
    if (signal.aborted) return "interrupted";
    if (input.until === "done" && read && sending === 0) return "done";
    return null;
  }
}

/**
 * What the reads of one poll came to, for the decide step (`reads`: empty rows and details when the
 * statistics could not be read) and the budget (`ledger` with this poll's reads recorded).
 */
type PollOnce = ({ readonly kind: "read" } | { readonly kind: "failed"; readonly error: ApiError }) & {
  readonly reads: PollReads;
  readonly ledger: ReadLedger;
  readonly statsPages: number;
  readonly byId: number;
  readonly deferred: number;
  readonly pagesPerPoll: number;
  /** The wait the pages alone ask for (`pollWaitMs`). */
  readonly pace: number;
};

/** Statistics first, then reads by id as the budget allows (see the module comment). */
async function readPollOnce(input: WatchInput, carried: Carried, first: boolean): Promise<PollOnce> {
  const nowMs = () => input.now().getTime();
  const budgetRequests = input.budgetRequests ?? input.requests;
  const start = budgetRequests();
  const stats = await readStats(input.port, input.now, {
    // The first poll, and any later one until a read of the organizations succeeded.
    organizations: first || carried.names.size === 0,
    tracked: new Set(carried.state.keys()),
    wanted: new Set(
      [...carried.state.values()]
        .filter((f) => first || (f.watched && sendingNow(f)))
        .map((f) => f.target.id),
    ),
  });
  let ledger = recordReads(carried.ledger, nowMs(), budgetRequests() - start);
  const ranged = statusRange(input.now(), undefined);
  if (!ranged.ok) throw new Error(`statusRange without --since failed: ${ranged.diagnostic.message}`);
  if (!stats.ok) {
    const pace = pollWaitMs(input.intervalMs, carried.pagesPerPoll);
    return {
      kind: "failed",
      error: stats.error,
      reads: { rows: new Map(), details: new Map(), organizationNames: carried.names, range: ranged.range },
      ledger,
      statsPages: 0,
      byId: 0,
      deferred: 0,
      pagesPerPoll: carried.pagesPerPoll,
      pace,
    };
  }
  const names =
    stats.organizations === null
      ? carried.names
      : new Map(stats.organizations.map((o) => [o.id, o.display_name]));
  const pagesPerPoll = Math.max(1, Math.ceil(stats.statsPages / stats.windows));
  const pace = pollWaitMs(input.intervalMs, pagesPerPoll);
  const room = byIdRoom(ledger, nowMs(), pagesPerPoll, pace) - carried.pauseReserve - carried.alsoReserve;
  const plan = planReadsById(carried.state, stats.rows, room);
  const before = budgetRequests();
  const details = await readById(input.port, plan.ids);
  ledger = recordReads(ledger, nowMs(), budgetRequests() - before);
  return {
    kind: "read",
    reads: { rows: stats.rows, details, organizationNames: names, range: ranged.range },
    ledger,
    statsPages: stats.statsPages,
    byId: plan.ids.length,
    deferred: plan.carried,
    pagesPerPoll,
    pace,
  };
}
