/**
 * The reconciliation loop's decision step (design.md "Plan": apply is a reconciliation loop). Pure:
 * given the plan judged this round from fresh reads and the results of the run so far, say what to
 * send now, what waits, and whether to go round again.
 *
 * Rules, per action of the judged plan:
 * - An action already sent in this run (it has a result) is never sent again by the loop: its
 *   resends with the same key are `performAction`'s, and a run sends each action id at most once.
 * - `blocked`: stays blocked. An action id the reviewed plan (the one shown and approved, or a
 *   saved plan) does not hold is not sent: the world moved since the review.
 * - A dependency that ended done or replayed lets its dependants go; one that ended failed,
 *   unknown, skipped or blocked skips them; one still to be sent (or waiting) holds them for a
 *   later round; one deferred defers them.
 * - `deferred` (a test approval): waits for it when waiting is allowed (`--wait-for-approval`,
 *   before its deadline), else stays deferred (said not approved within the wait once it ended).
 * - `planned` with its dependencies met: sent, unless a saved plan is being applied and the action,
 *   re-judged now, is not the one reviewed (`sameAsReviewed`): then it is refused with that
 *   diagnostic.
 *
 * `next`: `round` after sending (an effect may make more runnable), `wait` when only approvals are
 * awaited, `done` when nothing more can happen in this run. Refusals are the caller's to record
 * (as results) before deciding again on the same plan, so that their dependants are skipped.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Action, Plan } from "../plan/types.js";
import { sameAsReviewed } from "./saved-plan.js";
import type { ActionResult, ActionResultStatus } from "./types.js";

/** What the loop does about one action this round. */
export type ActionVerdict =
  | { readonly kind: "sent" }
  | { readonly kind: "send" }
  | { readonly kind: "refuse"; readonly diagnostic: Diagnostic }
  /** Waits for a dependency that may still go ahead in this run. */
  | { readonly kind: "pending"; readonly reason: string }
  /** Waits for a test approval, and the run waits with it. */
  | { readonly kind: "wait"; readonly reason: string }
  /** Not sendable in this run as things stand. */
  | {
      readonly kind: "settle";
      readonly status: Extract<ActionResultStatus, "blocked" | "deferred" | "skipped">;
      readonly reason: string;
    };

export interface RoundInput {
  /** The plan judged this round, from reads made in this round. */
  readonly plan: Plan;
  /** Results of actions sent (or refused) so far in this run, by action id. */
  readonly results: ReadonlyMap<string, ActionResult>;
  /** The plan the person reviewed: the one shown and approved, or the saved plan file. */
  readonly reviewed: Plan;
  /** True when `reviewed` is a saved plan: each action sent must equal its reviewed one exactly. */
  readonly exact: boolean;
  /** `--wait-for-approval` given, its deadline not passed, and not interrupted. */
  readonly waitingAllowed: boolean;
  /**
   * `--wait-for-approval` was given and its deadline passed: an approval still awaited ends deferred
   * as not approved within the wait (absent: false).
   */
  readonly waitEnded?: boolean;
}

export interface RoundDecision {
  /** Every action of the judged plan, in plan order, with its verdict. */
  readonly verdicts: ReadonlyMap<string, ActionVerdict>;
  readonly send: readonly Action[];
  readonly refuse: readonly { readonly action: Action; readonly diagnostic: Diagnostic }[];
  readonly next: "round" | "wait" | "done";
}

const GOOD = new Set<ActionResultStatus>(["done", "replayed"]);

export function decideRound(input: RoundInput): RoundDecision {
  const actions = input.plan.projects.flatMap((p) => p.actions);
  const byId = new Map(actions.map((a) => [a.id, a]));
  const reviewed = new Map(input.reviewed.projects.flatMap((p) => p.actions).map((a) => [a.id, a]));
  const verdicts = new Map<string, ActionVerdict>();
  const visiting = new Set<string>();

  const verdictOf = (action: Action): ActionVerdict => {
    const known = verdicts.get(action.id);
    if (known !== undefined) return known;
    if (visiting.has(action.id))
      return { kind: "settle", status: "blocked", reason: "it is on a dependency cycle" };
    visiting.add(action.id);
    const verdict = decideOne(action);
    visiting.delete(action.id);
    verdicts.set(action.id, verdict);
    return verdict;
  };

  const decideOne = (action: Action): ActionVerdict => {
    if (input.results.has(action.id)) return { kind: "sent" };
    if (action.status === "blocked")
      return { kind: "settle", status: "blocked", reason: action.block?.reason ?? "blocked by the plan" };
    const wasReviewed = reviewed.get(action.id);
    if (wasReviewed === undefined)
      return {
        kind: "settle",
        status: "blocked",
        reason: "the live state moved since the plan was reviewed and this action was not in it; plan again",
      };
    for (const id of action.depends_on) {
      const dep = dependencyState(id);
      if (dep !== null) return dep;
    }
    if (action.status === "deferred") {
      const waitsFor = action.waits_for ?? "something outside campaignctl";
      if (input.waitingAllowed) return { kind: "wait", reason: `waits for ${waitsFor}` };
      return {
        kind: "settle",
        status: "deferred",
        reason:
          input.waitEnded === true
            ? `waits for ${waitsFor}: not approved within --wait-for-approval`
            : `waits for ${waitsFor}`,
      };
    }
    if (action.request.idempotency_key === null)
      return {
        kind: "refuse",
        diagnostic: {
          severity: "error",
          code: "apply.plan-differs",
          message: `${action.id}: judged planned without an idempotency key; nothing was sent`,
        },
      };
    if (input.exact) {
      const differs = sameAsReviewed(wasReviewed, action, {
        reviewed: input.reviewed.created_at,
        fresh: input.plan.created_at,
      });
      if (differs !== null) return { kind: "refuse", diagnostic: differs };
    }
    return { kind: "send" };
  };

  /** Null when the dependency lets the action go; else the action's verdict because of it. */
  const dependencyState = (id: string): ActionVerdict | null => {
    const result = input.results.get(id);
    if (result !== undefined)
      return GOOD.has(result.status)
        ? null
        : { kind: "settle", status: "skipped", reason: `it depends on ${id}, which ended ${result.status}` };
    const dep = byId.get(id);
    // Not in the judged plan any more: the project is where the file wants it.
    if (dep === undefined) return null;
    const v = verdictOf(dep);
    switch (v.kind) {
      case "sent":
        return null;
      case "send":
      case "pending":
      case "wait":
        return { kind: "pending", reason: `it waits for ${id}` };
      case "refuse":
        return { kind: "settle", status: "skipped", reason: `it depends on ${id}, which was refused` };
      case "settle":
        return v.status === "deferred"
          ? { kind: "settle", status: "deferred", reason: `it waits for ${id}, which is deferred` }
          : { kind: "settle", status: "skipped", reason: `it depends on ${id}, which is ${v.status}` };
    }
  };

  for (const a of actions) verdictOf(a);
  const ordered = new Map(actions.map((a) => [a.id, verdicts.get(a.id) as ActionVerdict]));
  const send = actions.filter((a) => ordered.get(a.id)?.kind === "send");
  const refuse = actions.flatMap((a) => {
    const v = ordered.get(a.id);
    return v?.kind === "refuse" ? [{ action: a, diagnostic: v.diagnostic }] : [];
  });
  const waiting = actions.some((a) => ordered.get(a.id)?.kind === "wait");
  const next = send.length > 0 ? "round" : waiting ? "wait" : "done";
  return { verdicts: ordered, send, refuse, next };
}
