/**
 * What each action does to a project's live status: the one statement of the lifecycle our actions
 * drive. The transition table (`transitions.ts`) plans from it, and apply's effect check
 * (`src/apply/effect-check.ts`) reads a re-read project against it. Pure data.
 *
 * The lifecycle, in the API (design.md "Sandbox semantics"):
 *
 * ```
 * draft --test--> awaiting_test --(approval in the dashboard)--> ready --schedule--> scheduled
 * scheduled --(its time)--> active --(its sends finish)--> completed
 * scheduled, active --pause--> paused --(restart: a dashboard step)--> scheduled
 * ```
 *
 * | action   | sent from          | its effect reaches | statuses that prove it took effect          |
 * |----------|--------------------|--------------------|---------------------------------------------|
 * | test     | draft              | awaiting_test      | every status but draft                      |
 * | schedule | ready              | scheduled          | scheduled, active, completed, paused        |
 * | pause    | scheduled, active  | paused             | paused                                      |
 */
import type { ProjectStatus } from "../contract/limits.js";
import type { ActionKind } from "./types.js";

/**
 * One action's step in the lifecycle. Invariants: `to` is in `proof`; no status of `from` is in
 * `proof` (a project still where the action is sent from shows no effect).
 */
export interface ActionStep {
  /** The live statuses the planner sends the action from. */
  readonly from: readonly ProjectStatus[];
  /** The status the action's effect reaches at once (a plan action's `after`). */
  readonly to: ProjectStatus;
  /**
   * The statuses a project reaches only through this action's effect: `to` and every status after
   * it. A test approved at once is `ready`; a schedule whose time came is `active`, then
   * `completed`; either may have been paused since.
   */
  readonly proof: readonly ProjectStatus[];
  /**
   * Whether the action makes texts go out (a test send, a schedule). One that sends none (a pause)
   * may go again to a project that moved while it is still in a `from` status: nothing unreviewed
   * can go out by it.
   */
  readonly sendsTexts: boolean;
}

export const LIFECYCLE = {
  test: {
    from: ["draft"],
    to: "awaiting_test",
    proof: ["awaiting_test", "ready", "scheduled", "active", "paused", "completed"],
    sendsTexts: true,
  },
  schedule: {
    from: ["ready"],
    to: "scheduled",
    proof: ["scheduled", "active", "completed", "paused"],
    sendsTexts: true,
  },
  pause: {
    from: ["scheduled", "active"],
    to: "paused",
    proof: ["paused"],
    sendsTexts: false,
  },
} as const satisfies Readonly<Record<ActionKind, ActionStep>>;

/** The live statuses a pause is sent from (the project is sending, or about to). */
export type PausableStatus = (typeof LIFECYCLE.pause.from)[number];

const STEPS: Readonly<Record<ActionKind, ActionStep>> = LIFECYCLE;

/** Whether a project in `status` shows that an action of `kind` took effect. */
export function provesEffect(kind: ActionKind, status: ProjectStatus): boolean {
  return STEPS[kind].proof.includes(status);
}

/** Whether `status` is one an action of `kind` is sent from. */
export function isSentFrom(kind: ActionKind, status: ProjectStatus): boolean {
  return STEPS[kind].from.includes(status);
}
