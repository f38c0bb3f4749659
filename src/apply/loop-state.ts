/**
 * The reconciliation loop's two records: `LoopRun`, what is fixed for a run (inputs, IO, time,
 * limits), and `LoopState`, what the run has learnt so far, threaded through every round
 * (`loop-round.ts`) and read at the end (`reconcile.ts`). Only the functions here and the round's
 * steps change a `LoopState`.
 */
import type { Clock, Sleep } from "../api/index.js";
import type { Project } from "../contract/resources.js";
import type { Judged } from "../plan/judge.js";
import type { LiveRead } from "../plan/live.js";
import type { Action, Plan } from "../plan/types.js";
import type { ApprovalsGate } from "./approvals-gate.js";
import type { BasisReader } from "./basis.js";
import type { RoundDecision } from "./decide.js";
import type { ApplyEventListener } from "./events.js";
import type { PerformDeps } from "./perform.js";
import type { ApplyPort } from "./port.js";
import type { Judge } from "./sendable.js";
import type { ActionResult } from "./types.js";
import { isoAt } from "./waits.js";

/** What is fixed for one run of the loop. */
export interface LoopRun {
  readonly port: ApplyPort & BasisReader;
  /** Judges the files against project reads, as `plan` does. */
  readonly judge: Judge;
  /** The plan the person reviewed: the one shown and approved, or the saved plan. */
  readonly reviewed: Plan;
  /** True when `reviewed` is a saved plan: each action sent must equal its reviewed one exactly. */
  readonly exact: boolean;
  /** A saved plan's approvals, read again in each round before it sends what needs them. */
  readonly approvals?: ApprovalsGate;
  /** What each send needs (`performAction`). */
  readonly perform: PerformDeps;
  /** Actions in flight at once (at least 1). */
  readonly parallelism: number;
  /** The end of `--wait-for-approval` on `clock`; null: approvals are not waited for. */
  readonly deadlineMs: number | null;
  /** Shortest interval between approval polls. */
  readonly pollIntervalMs: number;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly signal: AbortSignal;
  readonly emit: ApplyEventListener;
}

/**
 * What the run knows between rounds. Invariants: every id of `order` is a key of `seen`, once;
 * `results` holds only actions sent (or refused) in this run, each once; `touched` and
 * `readAfterSend` are disjoint.
 */
export interface LoopState {
  /** Action ids in report order: the reviewed plan's, then any seen later. */
  readonly order: string[];
  /** The newest form of every action seen, by id (for address, kind and project). */
  readonly seen: Map<string, Action>;
  /** The newest read of every project, by id: the plan's (maybe cached), then this run's. */
  readonly held: Map<string, LiveRead<Project>>;
  /** Projects sent to since their last read (read by id next round). */
  readonly touched: Set<string>;
  /** Projects read after this run last sent to them. */
  readonly readAfterSend: Set<string>;
  /** Projects whose runnable action was held back because they were not read this round. */
  readonly mustRead: Set<string>;
  /** Results of the actions sent (or refused) so far, by action id. */
  readonly results: Map<string, ActionResult>;
  /** Requests the basis reads made. */
  basisReads: number;
  /** The plan the last round judged (the shown plan before the first round). */
  last: Plan;
  /** The last round's judgement, with each project judged alone against it (undefined before the first round). */
  judged?: Judged;
  /** The last decision made (null before the first). */
  decision: RoundDecision | null;
  /** Actions whose request is in flight (for the interrupt event). */
  inFlight: number;
}

/** The state before the first round: nothing sent, the shown plan's reads held. */
export function newLoopState(
  reviewed: Plan,
  shown: Plan,
  live: ReadonlyMap<string, LiveRead<Project>>,
): LoopState {
  const state: LoopState = {
    order: [],
    seen: new Map(),
    held: new Map(live),
    touched: new Set(),
    readAfterSend: new Set(),
    mustRead: new Set(),
    results: new Map(),
    basisReads: 0,
    last: shown,
    decision: null,
    inFlight: 0,
  };
  see(state, reviewed);
  see(state, shown);
  return state;
}

/** Notes every action of `plan`: new ids join the report order; every action's newest form is kept. */
export function see(state: LoopState, plan: Plan): void {
  for (const a of plan.projects.flatMap((p) => p.actions)) {
    if (!state.seen.has(a.id)) state.order.push(a.id);
    state.seen.set(a.id, a);
  }
}

/** An action sent (or refused) in this run reached its end: kept, and announced. */
export function record(run: LoopRun, state: LoopState, id: string, result: ActionResult): void {
  state.results.set(id, result);
  announceEnd(run, id, result);
}

/** The `action-end` event of a result. */
export function announceEnd(run: LoopRun, id: string, result: ActionResult): void {
  run.emit({
    type: "action-end",
    at: isoAt(run.clock.now()),
    id,
    status: result.status,
    reason: result.reason,
    resolution: result.resolution,
    error: result.error,
    attempts: result.attempts,
  });
}
