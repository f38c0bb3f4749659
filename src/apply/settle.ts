/**
 * The end of a reconciliation run, as results: one per action the run saw, from what was sent and
 * from the last round's verdicts. Pure.
 *
 * - A sent action keeps its result; an `unknown` one whose project, re-read later in the run, no
 *   longer needs it (the judged plan lost the action) is `done`: the transition was seen.
 * - An action never sent: its last verdict (blocked, deferred, skipped); still to send or waiting
 *   when the run was interrupted: `not-started`, or `deferred` for one waiting for approval; gone
 *   from the last judged plan: `replayed` with no attempt when its project was read and is where
 *   the file wants it (another run or a person did it), `skipped` when its project became unreadable.
 */
import type { Action, Plan } from "../plan/types.js";
import type { ActionVerdict } from "./decide.js";
import { unsentResult } from "./result.js";
import type { ActionResult, UnreadableProject } from "./types.js";

export interface SettleInput {
  /** Action ids in report order (the reviewed plan's order, then any seen later). */
  readonly order: readonly string[];
  /** The newest form of every action seen (for address, kind, project). */
  readonly seen: ReadonlyMap<string, Action>;
  readonly results: ReadonlyMap<string, ActionResult>;
  /** The last plan judged, and its verdicts. */
  readonly last: Plan;
  readonly verdicts: ReadonlyMap<string, ActionVerdict>;
  /** Projects read after this run last sent to them. */
  readonly readAfterSend: ReadonlySet<string>;
  readonly interrupted: boolean;
}

export function settleResults(input: SettleInput): ActionResult[] {
  const lastIds = new Set(input.last.projects.flatMap((p) => p.actions.map((a) => a.id)));
  const liveOf = new Map(input.last.projects.map((p) => [p.project_id, p.live]));
  const out: ActionResult[] = [];
  for (const id of input.order) {
    const action = input.seen.get(id);
    if (action === undefined) continue;
    const result = input.results.get(id);
    if (result !== undefined) {
      const seenDone =
        result.status === "unknown" &&
        !lastIds.has(id) &&
        input.readAfterSend.has(action.project_id) &&
        (liveOf.get(action.project_id) ?? null) !== null;
      out.push(
        seenDone
          ? {
              ...result,
              status: "done",
              error: null,
              status_after: liveOf.get(action.project_id)?.status ?? result.status_after,
              resolution: [
                result.resolution,
                `re-read later in this run: the project is ${liveOf.get(action.project_id)?.status}, so the ${action.kind} took effect`,
              ]
                .filter((t) => t !== null)
                .join("; "),
            }
          : result,
      );
      continue;
    }
    const verdict = input.verdicts.get(id);
    if (verdict === undefined) {
      out.push(
        (liveOf.get(action.project_id) ?? null) === null
          ? unsentResult(action, "skipped", "the project could not be read in this run; nothing was sent")
          : unsentResult(
              action,
              "replayed",
              "nothing to send: read in this run, the project already is where the file wants it",
            ),
      );
      continue;
    }
    out.push(unsentResult(action, ...endOf(verdict, input.interrupted)));
  }
  return out;
}

function endOf(v: ActionVerdict, interrupted: boolean): [ActionResult["status"], string] {
  switch (v.kind) {
    case "settle":
      return [v.status, v.reason];
    case "send":
    case "sent":
    case "refuse":
      return ["not-started", "interrupted (Ctrl-C) before it started"];
    case "pending":
      return interrupted
        ? ["not-started", `interrupted (Ctrl-C) before it started; ${v.reason}`]
        : ["deferred", v.reason];
    case "wait":
      return [
        "deferred",
        interrupted
          ? "interrupted (Ctrl-C) while waiting for approval"
          : `${v.reason}: not approved within --wait-for-approval`,
      ];
  }
}

/** Projects the files ask something of (not `draft`) that the last round could not read. */
export function unreadableProjects(last: Plan): UnreadableProject[] {
  return last.projects.flatMap((p) =>
    p.live === null && p.desired !== "draft"
      ? [
          {
            address: p.address,
            project_id: p.project_id,
            desired: p.desired,
            message: p.diagnostics[0]?.message ?? "the project could not be read",
          },
        ]
      : [],
  );
}
