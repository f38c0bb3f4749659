/**
 * One round of the reconciliation loop (`reconcile.ts`), in three steps:
 *
 * 1. **read**: the basis of the projects it may act on (`basis.ts`), then judge the files against
 *    the reads held, exactly as `plan` does (`LoopRun.judge`, on the clock now);
 * 2. **decide** what is runnable (`decide.ts`), recording refusals as results until none is left;
 * 3. **send** what is runnable on a project read this round, at most {@link ROUND_SENDS} actions
 *    (`dispatch.ts`), what a saved plan's approvals cover only if they, read again just before,
 *    still allow it (`approvals-gate.ts`); or **wait** for approvals until the next poll.
 *
 * Its outcome says whether another round may change anything.
 */
import type { Action, Plan } from "../plan/types.js";
import { ownActionError } from "./action-error.js";
import { readBasis } from "./basis.js";
import { decideRound, type RoundDecision } from "./decide.js";
import { dispatch } from "./dispatch.js";
import { type LoopRun, type LoopState, record, see } from "./loop-state.js";
import { pollInterval } from "./poll.js";
import { unsentResult } from "./result.js";
import { sendable } from "./sendable.js";
import type { ActionResult } from "./types.js";
import { isoAt, sleepUnlessAborted } from "./waits.js";

/** Actions sent per round, so each send's basis is at most one round old (one stats read per 50). */
export const ROUND_SENDS = 50;

/** `again`: it sent or waited, so a next round may find more to do; `end`: nothing more can happen. */
export type RoundEnd = "again" | "end";

/** A guard against a loop that would not end (each round sends or waits; both are bounded). */
const MAX_ROUNDS = 10_000;

/** Plays rounds until one says nothing more can happen, or the run is interrupted. */
export async function playRounds(run: LoopRun, state: LoopState): Promise<void> {
  for (let round = 1; round <= MAX_ROUNDS && !run.signal.aborted; round++)
    if ((await playRound(run, state, round)) === "end") return;
}

/** Plays round `round` (1-based). */
export async function playRound(run: LoopRun, state: LoopState, round: number): Promise<RoundEnd> {
  const ids = projectsToRead(state.last, state.results, state.mustRead);
  if (ids.length === 0 && round > 1) return "end";
  const fresh = await readAndJudge(run, state, ids);
  const decision = decideRefusing(run, state);
  state.decision = decision;
  switch (decision.next) {
    case "round":
      await sendFresh(run, state, decision.send, fresh);
      return "again";
    case "wait":
      if (run.deadlineMs === null) return "end";
      await waitForApprovals(run, state, decision, run.deadlineMs);
      return "again";
    case "done":
      return "end";
  }
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

/** The decision on the plan judged last, approvals awaited or not (`waitingAllowed`). */
export function decide(
  run: LoopRun,
  state: LoopState,
  waiting: { readonly waitingAllowed: boolean; readonly waitEnded?: boolean },
): RoundDecision {
  return decideRound({
    plan: state.last,
    results: state.results,
    reviewed: run.reviewed,
    exact: run.exact,
    ...waiting,
  });
}

/** Step 1: reads the basis of `ids` and judges the files against it; the projects read this round. */
async function readAndJudge(run: LoopRun, state: LoopState, ids: readonly string[]): Promise<Set<string>> {
  const basis = await readBasis(run.port, ids, state.held, state.touched, new Date(run.clock.now()));
  state.basisReads += basis.requests;
  for (const [id, read] of basis.projects) {
    state.held.set(id, read);
    if (state.touched.delete(id)) state.readAfterSend.add(id);
  }
  state.mustRead.clear();
  state.judged = run.judge(state.held, new Date(run.clock.now()));
  state.last = state.judged.plan;
  see(state, state.last);
  return new Set(basis.projects.keys());
}

/** Step 2: decides, records each refusal as a failed result, and decides again until none is left. */
function decideRefusing(run: LoopRun, state: LoopState): RoundDecision {
  for (;;) {
    const nowMs = run.clock.now();
    const decision = decide(run, state, {
      waitingAllowed: run.deadlineMs !== null && nowMs < run.deadlineMs && !run.signal.aborted,
      waitEnded: run.deadlineMs !== null && nowMs >= run.deadlineMs,
    });
    if (decision.refuse.length === 0) return decision;
    for (const { action, diagnostic } of decision.refuse)
      record(run, state, action.id, {
        ...unsentResult(action, "failed", "refused: re-judged now, it is not the action reviewed"),
        error: ownActionError(diagnostic.code, diagnostic.message),
      });
  }
}

/** Step 3: sends what may go to projects read this round; the others are read first, next round. */
async function sendFresh(
  run: LoopRun,
  state: LoopState,
  send: readonly Action[],
  fresh: ReadonlySet<string>,
): Promise<void> {
  // Several organizations (issue 26): their actions take turns, so that each organization's key
  // (own client, own limiter) is busy at once; `parallelism` and ROUND_SENDS hold per organization.
  const sections = run.reviewed.organizations;
  const ready = interleaveByOrganization(
    send.filter((a) => fresh.has(a.project_id)),
    sections,
  );
  for (const a of send) if (!fresh.has(a.project_id)) state.mustRead.add(a.project_id);
  // What needs approvals goes only on approvals read now, just before the round's sends.
  const round = await passApprovals(
    run,
    state,
    ready.slice(0, ROUND_SENDS * Math.max(1, organizationsOf(ready, sections))),
  );
  const judged = state.judged;
  if (judged === undefined) throw new Error("apply: a round sends before it judged");
  const batch = round.map((a) => sendable(a, state.held, judged));
  await dispatch(
    batch,
    run.perform,
    run.parallelism * Math.max(1, organizationsOf(round, sections)),
    (s, result) => {
      if (result.status !== "not-started") state.inFlight--;
      state.touched.add(s.action.project_id);
      state.readAfterSend.delete(s.action.project_id);
      record(run, state, s.action.id, result);
    },
    () => {
      state.inFlight++;
    },
  );
}

const HELD =
  "held: not sent, the approvals it needs (require_approvals), read again just before sending it, no longer allow it; once they do, apply the saved plan again (or, refused as changed since, make the plan again and have that approved)";

/**
 * The actions of `round` that may be sent: all of them when none needs approvals or the approvals
 * read now are enough; else those that need none, the others recorded failed with the finding.
 */
async function passApprovals(
  run: LoopRun,
  state: LoopState,
  round: readonly Action[],
): Promise<readonly Action[]> {
  const gate = run.approvals;
  if (gate === undefined) return round;
  const covered = round.filter((a) => gate.covers(a));
  if (covered.length === 0) return round;
  const refusal = await gate.read(covered);
  if (refusal === null) return round;
  for (const action of covered)
    record(run, state, action.id, {
      ...unsentResult(action, "failed", HELD),
      error: ownActionError(refusal.code, refusal.message),
    });
  return round.filter((a) => !gate.covers(a));
}

/** Step 3 when only approvals are awaited: says so for each, and sleeps until the next poll. */
async function waitForApprovals(
  run: LoopRun,
  state: LoopState,
  decision: RoundDecision,
  deadlineMs: number,
): Promise<void> {
  const nowMs = run.clock.now();
  const interval = Math.min(pollInterval(run.pollIntervalMs, 1), deadlineMs - nowMs);
  for (const [id, v] of decision.verdicts) {
    if (v.kind !== "wait") continue;
    const projectId = state.seen.get(id)?.project_id;
    const read = projectId === undefined ? undefined : state.held.get(projectId);
    run.emit({
      type: "waiting",
      at: isoAt(nowMs),
      id,
      live_status: read?.kind === "found" ? read.value.status : null,
      next_poll_ms: interval,
      deadline: isoAt(deadlineMs),
    });
  }
  await sleepUnlessAborted(run.sleep, interval, run.signal);
}

/** The organization section index of each address (none without sections). */
function sectionIndex(sections: Plan["organizations"]): Map<string, number> {
  const index = new Map<string, number>();
  for (const [i, section] of (sections ?? []).entries())
    for (const address of section.projects) index.set(address, i);
  return index;
}

/** Round-robin over organizations, each organization's actions in their order. */
export function interleaveByOrganization(
  actions: readonly Action[],
  sections: Plan["organizations"],
): Action[] {
  if (sections === undefined) return [...actions];
  const index = sectionIndex(sections);
  const queues = new Map<number, Action[]>();
  for (const a of actions) {
    const i = index.get(a.address) ?? -1;
    const queue = queues.get(i) ?? [];
    queue.push(a);
    queues.set(i, queue);
  }
  const out: Action[] = [];
  const lists = [...queues.values()];
  for (let turn = 0; out.length < actions.length; turn++)
    for (const list of lists) {
      const a = list[turn];
      if (a !== undefined) out.push(a);
    }
  return out;
}

/** How many organizations `actions` belong to (1 without sections). */
function organizationsOf(actions: readonly Action[], sections: Plan["organizations"]): number {
  if (sections === undefined) return 1;
  const index = sectionIndex(sections);
  return new Set(actions.map((a) => index.get(a.address) ?? -1)).size;
}
