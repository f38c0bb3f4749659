/**
 * `--wait-for-approval`: after the test send, poll `GET /projects/{id}` until a person approves the
 * test (the project becomes `ready`), then derive the deferred schedule's request and key from the
 * live state at that moment (the planner's helpers; `based_on` is the new `updated_at`). Polls go
 * through the client's one rate limiter, and their interval grows with the number of projects
 * waiting so that polling takes at most a fifth of the key's budget.
 */

import type { Clock, Sleep } from "../api/index.js";
import { idempotencyKey } from "../api/index.js";
import type { Project } from "../contract/resources.js";
import type { Action } from "../plan/types.js";
import { contentChanges } from "./effects.js";
import type { ApplyEventListener } from "./events.js";
import type { Sendable } from "./perform.js";
import type { ApplyPort } from "./port.js";
import { isoAt, sleepUnlessAborted } from "./waits.js";

/** Share of the contract's 100 requests a minute that approval polling may use. */
export const POLL_BUDGET_PER_MINUTE = 20;

export type ApprovalOutcome =
  | { readonly kind: "ready"; readonly sendable: Sendable }
  | { readonly kind: "timeout"; readonly status: string | null }
  | { readonly kind: "interrupted" }
  | { readonly kind: "moved"; readonly text: string };

export interface ApprovalDeps {
  readonly port: ApplyPort;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly signal: AbortSignal;
  readonly emit: ApplyEventListener;
  readonly deadlineMs: number;
  readonly minIntervalMs: number;
  /** How many projects are waiting now (for the interval). */
  readonly waiting: () => number;
  readonly organizationId: string | undefined;
  readonly bodyFor: (now: Date) => unknown;
}

/** The interval between polls of one project when `waiting` projects poll. */
export function pollInterval(minIntervalMs: number, waiting: number): number {
  return Math.max(minIntervalMs, Math.ceil((Math.max(1, waiting) * 60_000) / POLL_BUDGET_PER_MINUTE));
}

export async function awaitApproval(action: Action, d: ApprovalDeps): Promise<ApprovalOutcome> {
  let first: Project | null = null;
  let lastStatus: string | null = null;
  for (;;) {
    if (d.signal.aborted) return { kind: "interrupted" };
    const res = await d.port.getProject(action.project_id);
    if (res.ok) {
      const project = res.value;
      lastStatus = project.status;
      first ??= project;
      const edited = contentChanges(first, project);
      if (edited.length > 0)
        return {
          kind: "moved",
          text: `the project's ${edited.join(", ")} changed while the schedule waited for approval; nothing unreviewed goes out`,
        };
      switch (project.status) {
        case "ready":
          return { kind: "ready", sendable: sendableFrom(action, project, d) };
        case "draft":
        case "awaiting_test":
          break;
        case "scheduled":
        case "active":
        case "paused":
        case "completed":
          return {
            kind: "moved",
            text: `the project is ${project.status} already (another run or a person acted); plan again`,
          };
      }
    }
    const nowMs = d.clock.now();
    if (nowMs >= d.deadlineMs) return { kind: "timeout", status: lastStatus };
    const interval = Math.min(pollInterval(d.minIntervalMs, d.waiting()), d.deadlineMs - nowMs);
    d.emit({
      type: "waiting",
      at: isoAt(nowMs),
      id: action.id,
      live_status: res.ok ? res.value.status : null,
      next_poll_ms: interval,
      deadline: isoAt(d.deadlineMs),
    });
    await sleepUnlessAborted(d.sleep, interval, d.signal);
  }
}

function sendableFrom(action: Action, project: Project, d: ApprovalDeps): Sendable {
  const body = d.bodyFor(new Date(d.clock.now()));
  const key = idempotencyKey({
    // The project's own organization, as the planner derives it (the same key in every mode).
    org: project.organization_id,
    project_id: project.project_id,
    action: action.kind,
    body,
    based_on: project.updated_at,
  });
  return {
    action,
    body,
    key,
    basis: { status: project.status, updated_at: project.updated_at },
    note: `the test was approved (ready at ${project.updated_at}); key derived from that state`,
  };
}
