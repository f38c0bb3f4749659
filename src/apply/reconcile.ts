/**
 * Apply as a reconciliation loop (design.md "Plan"; issue 9). The IO driver around the pure
 * decision step (`decide.ts`): until converged, out of time or interrupted, each round
 * (`loop-round.ts`)
 *
 * 1. reads the basis of the projects it may act on (`basis.ts`: one stats request confirms up to a
 *    thousand unchanged projects; anything unlisted, changed or just sent to is read by id);
 * 2. judges them against the files exactly as `plan` does (the injected `judge`: drift,
 *    preconditions, references, transition table, on the API's clock now);
 * 3. decides what is runnable now and sends at most `ROUND_SENDS` of it (`dispatch.ts`: parallel,
 *    one rate limiter, abort-aware), each schedule re-judged on the clock right before its request
 *    (a schedule whose `at` passed is blocked, not sent); a saved plan's approvals, when the round
 *    sends what they cover, read again just before (`approvals-gate.ts`);
 * 4. goes round again when it sent something (an effect may make a schedule or a dependant
 *    runnable), waits and polls when only approvals are awaited (`--wait-for-approval`), else ends.
 *
 * Every mutating request therefore rests on a read made in this run, in the round that sends it;
 * the plan's reads (maybe from the cache) only decide what to read. Each action id is sent at most
 * once per run (resends with the same key are `performAction`'s). What the run has learnt between
 * rounds is one record (`LoopState`, `loop-state.ts`); the end results are `settle.ts`'s.
 */

import { WRITE_FIRST_BACKOFF_MS, WRITE_MAX_ATTEMPTS } from "../api/write-retry.js";
import type { Project } from "../contract/resources.js";
import type { LiveRead } from "../plan/live.js";
import { readStats } from "../plan/refresh-stats.js";
import type { Plan } from "../plan/types.js";
import type { ApprovalsGate } from "./approvals-gate.js";
import type { BasisReader } from "./basis.js";
import { projectsToConfirm, withEndedElsewhere } from "./ended-elsewhere.js";
import { decide, playRounds } from "./loop-round.js";
import { announceEnd, type LoopRun, type LoopState, newLoopState } from "./loop-state.js";
import type { ApplyPort, ReconcileOptions } from "./port.js";
import { requestsBetween, summarizeResults } from "./result.js";
import type { Judge } from "./sendable.js";
import { settleResults, unreadableProjects } from "./settle.js";
import { type ActionResult, APPLY_FORMAT_VERSION, type ApplyResult } from "./types.js";
import { isoAt } from "./waits.js";

export interface ReconcileInput {
  /** The plan shown (and approved), judged from `live`. */
  readonly plan: Plan;
  /** The project reads `plan` was judged from (some maybe from the cache), by project id. */
  readonly live: ReadonlyMap<string, LiveRead<Project>>;
  readonly judge: Judge;
  /**
   * A saved plan being applied: every action sent must equal, re-judged at that moment, the one
   * reviewed (`sameAsReviewed`), else it is refused. Absent: the shown `plan` is the reviewed one
   * (an action it does not hold is not sent, but compared by id only).
   */
  readonly reviewed?: Plan;
  /**
   * A saved plan under the policy's `require_approvals`: its approvals are read again in each round,
   * just before it sends what they cover (`approvals-gate.ts`), so no send rests on approvals
   * counted earlier in the run only.
   */
  readonly approvals?: ApprovalsGate;
  /**
   * Nothing was approved to send (the plan had nothing to do, so no question was asked): read
   * nothing, send nothing, report the plan's actions as they stand (blocked, deferred, unreadable).
   */
  readonly reportOnly?: boolean;
}

export type ReconcilePort = ApplyPort & BasisReader;

export async function reconcile(
  input: ReconcileInput,
  port: ReconcilePort,
  options: ReconcileOptions,
): Promise<ApplyResult> {
  const startMs = options.clock.now();
  const baseline = options.baseline === undefined ? port.stats() : options.baseline;
  const run = loopRun(input, port, options, startMs);
  const state = newLoopState(run.reviewed, input.plan, input.live);
  announceStart(run, startMs, options.waitForApproval);
  const stopWatching = watchInterrupt(run, state);
  try {
    if (input.reportOnly === true) state.decision = decide(run, state, { waitingAllowed: false });
    else await playRounds(run, state);
  } finally {
    stopWatching();
  }
  const interrupted = run.signal.aborted;
  const settled = endResults(run, state, interrupted);
  const actions =
    interrupted || input.reportOnly === true
      ? settled
      : withEndedElsewhere(settled, await closingRead(run, settled));
  const summary = summarizeResults(actions);
  const finishedMs = run.clock.now();
  run.emit({ type: "run-end", at: isoAt(finishedMs), interrupted, summary });
  return {
    format_version: APPLY_FORMAT_VERSION,
    tool_version: options.toolVersion,
    base_url: run.reviewed.base_url,
    plan_created_at: run.reviewed.created_at,
    started_at: isoAt(startMs),
    finished_at: isoAt(finishedMs),
    interrupted,
    refused: [],
    actions,
    requests: requestsBetween(baseline, port.stats()),
    basis_reads: state.basisReads,
    unreadable: unreadableProjects(state.last),
    summary,
    journal: null,
  };
}

/** What is fixed for this run, from the input and options. */
function loopRun(
  input: ReconcileInput,
  port: ReconcilePort,
  options: ReconcileOptions,
  startMs: number,
): LoopRun {
  const { clock, sleep, signal } = options;
  const emit = options.onEvent;
  return {
    port,
    judge: input.judge,
    reviewed: input.reviewed ?? input.plan,
    exact: input.reviewed !== undefined,
    ...(input.approvals === undefined ? {} : { approvals: input.approvals }),
    perform: {
      port,
      clock,
      sleep,
      signal,
      emit,
      maxSends: options.maxSends ?? WRITE_MAX_ATTEMPTS,
      backoffMs: options.backoffMs ?? WRITE_FIRST_BACKOFF_MS,
    },
    parallelism: Math.max(1, Math.floor(options.parallelism)),
    deadlineMs: options.waitForApproval === null ? null : startMs + options.waitForApproval,
    pollIntervalMs: options.pollIntervalMs ?? 15_000,
    clock,
    sleep,
    signal,
    emit,
  };
}

/** The `run-start` event: the reviewed plan's actions, and how many may be sent. */
function announceStart(run: LoopRun, startMs: number, waitForApproval: number | null): void {
  const all = run.reviewed.projects.flatMap((p) => p.actions);
  const deferredToo = run.deadlineMs !== null;
  run.emit({
    type: "run-start",
    at: isoAt(startMs),
    actions: all.length,
    sendable: all.filter((a) => a.status === "planned" || (a.status === "deferred" && deferredToo)).length,
    parallelism: run.parallelism,
    wait_for_approval_ms: waitForApproval,
  });
}

/** The `interrupt` event, once: now if already aborted, else when the signal fires. Returns the unhook. */
function watchInterrupt(run: LoopRun, state: LoopState): () => void {
  if (run.signal.aborted) {
    run.emit({ type: "interrupt", at: isoAt(run.clock.now()), in_flight: 0 });
    return () => {};
  }
  const onAbort = () =>
    run.emit({ type: "interrupt", at: isoAt(run.clock.now()), in_flight: state.inFlight });
  run.signal.addEventListener("abort", onAbort, { once: true });
  return () => run.signal.removeEventListener("abort", onAbort);
}

/**
 * Every action's end result (`settle.ts`); those settled only now (never sent, or an unknown seen
 * done later) end here.
 */
function endResults(run: LoopRun, state: LoopState, interrupted: boolean): ActionResult[] {
  const settled = settleResults({
    order: state.order,
    seen: state.seen,
    results: state.results,
    last: state.last,
    verdicts: state.decision?.verdicts ?? new Map(),
    readAfterSend: state.readAfterSend,
    interrupted,
  });
  for (const r of settled) if (state.results.get(r.id) !== r) announceEnd(run, r.id, r);
  return settled;
}

/**
 * One closing look at the projects this run changed (one stats page per thousand projects, no read
 * by id): a project paused from the dashboard after this run scheduled it is reported as ended
 * paused. A failed read, or a project the rows do not list, changes nothing in the report.
 */
async function closingRead(run: LoopRun, results: readonly ActionResult[]): Promise<Map<string, string>> {
  const wanted = projectsToConfirm(results);
  const seen = new Map<string, string>();
  if (wanted.size === 0) return seen;
  const stats = await readStats(
    (params) => run.port.getProjectStats(params),
    wanted,
    new Date(run.clock.now()),
  );
  if (stats.ok) for (const [id, fact] of stats.facts) seen.set(id, fact.status);
  return seen;
}
