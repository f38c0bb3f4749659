/**
 * Apply as a reconciliation loop (design.md "Plan"; issue 9). The IO driver around the pure
 * decision step (`decide.ts`): until converged, out of time or interrupted, each round
 *
 * 1. reads the basis of the projects it may act on (`basis.ts`: one stats request confirms up to a
 *    thousand unchanged projects; anything unlisted, changed or just sent to is read by id);
 * 2. judges them against the files exactly as `plan` does (the injected `judge`: drift,
 *    preconditions, references, transition table, on the API's clock now);
 * 3. decides what is runnable now and sends at most {@link ROUND_SENDS} of it (`dispatch.ts`:
 *    parallel, one rate limiter, abort-aware), each schedule re-judged on the clock right before
 *    its request (a schedule whose `at` passed is blocked, not sent);
 * 4. goes round again when it sent something (an effect may make a schedule or a dependant
 *    runnable), waits and polls when only approvals are awaited (`--wait-for-approval`), else ends.
 *
 * Every mutating request therefore rests on a read made in this run, in the round that sends it;
 * the plan's reads (maybe from the cache) only decide what to read. Each action id is sent at most
 * once per run (resends with the same key are `performAction`'s).
 */
import type { Project } from "../contract/resources.js";
import type { LiveRead } from "../plan/live.js";
import type { Action, Plan } from "../plan/types.js";
import { type BasisReader, readBasis } from "./basis.js";
import { type ActionVerdict, decideRound, type RoundDecision } from "./decide.js";
import { dispatch } from "./dispatch.js";
import type { PerformDeps } from "./perform.js";
import { pollInterval } from "./poll.js";
import type { ApplyPort, ReconcileOptions } from "./port.js";
import { requestsBetween, summarizeResults, unsentResult } from "./result.js";
import { type Judge, sendable } from "./sendable.js";
import { settleResults, unreadableProjects } from "./settle.js";
import { type ActionResult, APPLY_FORMAT_VERSION, type ApplyResult } from "./types.js";
import { isoAt, sleepUnlessAborted } from "./waits.js";

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
   * Nothing was approved to send (the plan had nothing to do, so no question was asked): read
   * nothing, send nothing, report the plan's actions as they stand (blocked, deferred, unreadable).
   */
  readonly reportOnly?: boolean;
}

export type ReconcilePort = ApplyPort & BasisReader;

/** Actions sent per round, so each send's basis is at most one round old (one stats read per 50). */
export const ROUND_SENDS = 50;

/** A guard against a loop that would not end (each round sends or waits; both are bounded). */
const MAX_ROUNDS = 10_000;

export async function reconcile(
  input: ReconcileInput,
  port: ReconcilePort,
  options: ReconcileOptions,
): Promise<ApplyResult> {
  const { clock, signal } = options;
  const emit = options.onEvent;
  const parallelism = Math.max(1, Math.floor(options.parallelism));
  const startMs = clock.now();
  const baseline = options.baseline === undefined ? port.stats() : options.baseline;
  const deadlineMs = options.waitForApproval === null ? null : startMs + options.waitForApproval;
  const reviewed = input.reviewed ?? input.plan;
  const exact = input.reviewed !== undefined;
  const perform: PerformDeps = {
    port,
    clock,
    sleep: options.sleep,
    signal,
    emit,
    maxSends: options.maxSends ?? 5,
    backoffMs: options.backoffMs ?? 1000,
  };

  const order: string[] = [];
  const seen = new Map<string, Action>();
  const see = (plan: Plan) => {
    for (const a of plan.projects.flatMap((p) => p.actions)) {
      if (!seen.has(a.id)) order.push(a.id);
      seen.set(a.id, a);
    }
  };
  see(reviewed);
  see(input.plan);

  const held = new Map(input.live);
  const touched = new Set<string>();
  const readAfterSend = new Set<string>();
  const mustRead = new Set<string>();
  const results = new Map<string, ActionResult>();
  let basisReads = 0;
  let last = input.plan;
  let decision: RoundDecision | null = null;

  const ended = (id: string, result: ActionResult) =>
    emit({
      type: "action-end",
      at: isoAt(clock.now()),
      id,
      status: result.status,
      reason: result.reason,
      resolution: result.resolution,
      error: result.error,
      attempts: result.attempts,
    });
  const finish = (id: string, result: ActionResult) => {
    results.set(id, result);
    ended(id, result);
  };

  const all = reviewed.projects.flatMap((p) => p.actions);
  emit({
    type: "run-start",
    at: isoAt(startMs),
    actions: all.length,
    sendable: all.filter((a) => a.status === "planned" || (a.status === "deferred" && deadlineMs !== null))
      .length,
    parallelism,
    wait_for_approval_ms: options.waitForApproval,
  });
  let interrupted = signal.aborted;
  let inFlight = 0;
  const onAbort = () => {
    if (interrupted) return;
    interrupted = true;
    emit({ type: "interrupt", at: isoAt(clock.now()), in_flight: inFlight });
  };
  if (signal.aborted) emit({ type: "interrupt", at: isoAt(clock.now()), in_flight: 0 });
  else signal.addEventListener("abort", onAbort, { once: true });

  try {
    if (input.reportOnly === true)
      decision = decideRound({ plan: last, results, reviewed, exact, waitingAllowed: false });
    for (let round = 1; round <= MAX_ROUNDS && !signal.aborted && input.reportOnly !== true; round++) {
      const ids = projectsToRead(last, results, mustRead);
      if (ids.length === 0 && round > 1) break;
      const basis = await readBasis(port, ids, held, touched, new Date(clock.now()));
      basisReads += basis.requests;
      for (const [id, read] of basis.projects) {
        held.set(id, read);
        if (touched.delete(id)) readAfterSend.add(id);
      }
      const fresh = new Set(basis.projects.keys());
      mustRead.clear();
      last = input.judge(held, new Date(clock.now()));
      see(last);
      const waiting = () => ({
        waitingAllowed: deadlineMs !== null && clock.now() < deadlineMs && !signal.aborted,
        waitEnded: deadlineMs !== null && clock.now() >= deadlineMs,
      });
      let d = decideRound({ plan: last, results, reviewed, exact, ...waiting() });
      while (d.refuse.length > 0) {
        for (const { action, diagnostic } of d.refuse)
          finish(action.id, {
            ...unsentResult(action, "failed", "refused: re-judged now, it is not the action reviewed"),
            error: { status: null, code: diagnostic.code, message: diagnostic.message },
          });
        d = decideRound({ plan: last, results, reviewed, exact, ...waiting() });
      }
      decision = d;
      if (d.next === "round") {
        // Only projects read in this round are sent to; the others are read first, next round.
        const ready = d.send.filter((a) => fresh.has(a.project_id));
        for (const a of d.send) if (!fresh.has(a.project_id)) mustRead.add(a.project_id);
        const batch = ready.slice(0, ROUND_SENDS).map((a) => sendable(a, held, input.judge));
        await dispatch(
          batch,
          perform,
          parallelism,
          (s, result) => {
            if (result.status !== "not-started") inFlight--;
            touched.add(s.action.project_id);
            readAfterSend.delete(s.action.project_id);
            finish(s.action.id, result);
          },
          () => {
            inFlight++;
          },
        );
        continue;
      }
      if (d.next === "wait" && deadlineMs !== null) {
        const nowMs = clock.now();
        const interval = Math.min(pollInterval(options.pollIntervalMs ?? 15_000, 1), deadlineMs - nowMs);
        for (const [id, v] of d.verdicts)
          if (v.kind === "wait") {
            const projectId = seen.get(id)?.project_id;
            const read = projectId === undefined ? undefined : held.get(projectId);
            emit({
              type: "waiting",
              at: isoAt(nowMs),
              id,
              live_status: read?.kind === "found" ? read.value.status : null,
              next_poll_ms: interval,
              deadline: isoAt(deadlineMs),
            });
          }
        await sleepUnlessAborted(options.sleep, interval, signal);
        continue;
      }
      break;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  interrupted = interrupted || signal.aborted;

  const verdicts: ReadonlyMap<string, ActionVerdict> = decision?.verdicts ?? new Map();
  const actions = settleResults({ order, seen, results, last, verdicts, readAfterSend, interrupted });
  // Results settled only now (never sent, or an unknown seen done later) end here.
  for (const r of actions) if (results.get(r.id) !== r) ended(r.id, r);
  const summary = summarizeResults(actions);
  const finishedMs = clock.now();
  emit({ type: "run-end", at: isoAt(finishedMs), interrupted, summary });
  return {
    format_version: APPLY_FORMAT_VERSION,
    tool_version: options.toolVersion,
    base_url: reviewed.base_url,
    plan_created_at: reviewed.created_at,
    started_at: isoAt(startMs),
    finished_at: isoAt(finishedMs),
    interrupted,
    refused: [],
    actions,
    requests: requestsBetween(baseline, port.stats()),
    basis_reads: basisReads,
    unreadable: unreadableProjects(last),
    summary,
    journal: null,
  };
}

/**
 * Projects to read this round: those with an action neither sent nor blocked (it may be sent or
 * waits for an approval), those whose outcome is still unknown, and those held back last round.
 */
export function projectsToRead(
  plan: Plan,
  results: ReadonlyMap<string, ActionResult>,
  mustRead: ReadonlySet<string>,
): string[] {
  const ids = new Set<string>();
  for (const p of plan.projects)
    if (p.actions.some((a) => !results.has(a.id) && a.status !== "blocked")) ids.add(p.project_id);
  for (const r of results.values()) if (r.status === "unknown") ids.add(r.project_id);
  for (const id of mustRead) ids.add(id);
  return [...ids];
}
