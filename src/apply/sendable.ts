/**
 * A judged action made ready to send: its request, key and basis from the round that judged it, and
 * for a schedule a re-check on the clock right before each request (issue 9 item 3: a schedule whose
 * `at` passed between the judgement and the request is blocked, not sent).
 */
import type { Project } from "../contract/resources.js";
import type { Judged, Rejudge } from "../plan/judge.js";
import type { LiveRead } from "../plan/live.js";
import type { Action } from "../plan/types.js";
import type { Refusal, Sendable } from "./perform.js";

/**
 * Judges the files against project reads at `now`, exactly as `plan` does: the plan's judge
 * (src/plan/judge.ts `rejudge`), with the same files, policy, capacity, live sends and organization;
 * with the plan, each project judged alone against the plan's context, for the re-check right
 * before a send (src/plan/project-judgement.ts). Pure. ("Judge" in apply means this and only this;
 * whether a request took effect is the effect check's, `effect-check.ts`.)
 */
export type Judge = Rejudge;

/** The action as sent now: its request, key and basis from this round, the clock re-checked per send. */
export function sendable(
  action: Action,
  held: ReadonlyMap<string, LiveRead<Project>>,
  judged: Judged,
): Sendable {
  const read = held.get(action.project_id);
  if (read?.kind !== "found") throw new Error(`reconcile: ${action.id} judged sendable without a read`);
  const project = read.value;
  return {
    action,
    body: action.request.body,
    key: action.request.idempotency_key as string,
    basis: { status: project.status, updated_at: project.updated_at },
    ...(action.kind === "schedule" ? { recheck: (now: Date) => recheckAt(action, judged, now) } : {}),
  };
}

/**
 * Re-judges a schedule's project alone on the clock now, against the context of the round's plan
 * (the reads held, the policy, the budgets' ledgers, the forecast); a refusal when it is no longer
 * planned.
 */
function recheckAt(action: Action, judged: Judged, now: Date): Refusal | null {
  const again = judged.project(action.address, now)?.actions.find((a) => a.id === action.id);
  if (again === undefined)
    return {
      code: "apply.plan-differs",
      message: `${action.id}: re-judged at send time, it is no longer needed`,
    };
  if (again.status !== "blocked") return null;
  const code = again.block?.codes[0] ?? "apply.plan-differs";
  return {
    code,
    message: `re-judged at send time (${now.toISOString()}), ${code}: ${again.block?.reason ?? "blocked"}`,
  };
}
