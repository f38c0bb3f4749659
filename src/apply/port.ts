/** The part of the API client the executor uses, and the injected time it runs on. */
import type { ApiClient, Clock, Sleep } from "../api/index.js";
import type { ApplyEventListener } from "./events.js";

/** The client subset `executePlan` needs: the three actions, the project read and the accounting. */
export type ApplyPort = Pick<
  ApiClient,
  "testProject" | "scheduleProject" | "pauseProject" | "getProject" | "stats"
>;

/** Options of `executePlan`. Everything with time or IO is injected (tests run on a virtual clock). */
export interface ExecuteOptions {
  /** Independent actions in flight at once (default 4); every request still goes through the one limiter. */
  readonly parallelism: number;
  readonly clock: Clock;
  /**
   * The executor's own waits (backoff between resends, approval polls). It may resolve early when
   * `signal` aborts; the client keeps its own sleep.
   */
  readonly sleep: Sleep;
  /** Milliseconds (from the start of the run) to wait for test approvals; null: deferred stays deferred. */
  readonly waitForApproval: number | null;
  /** Ctrl-C: requests in flight finish, nothing new starts. */
  readonly signal: AbortSignal;
  readonly onEvent: ApplyEventListener;
  /** Written into the result. */
  readonly toolVersion: string;
  /**
   * The organization idempotency keys of deferred schedules are scoped to (the planner's
   * `organizationId`). Default: the live project's `organization_id`.
   */
  readonly organizationId?: string;
  /**
   * The body of a deferred schedule at the moment it becomes sendable (the planner's
   * `scheduleBody(spec.schedule, now)`, so `at: now` means then). Default: the plan's body.
   */
  readonly scheduleBodyFor?: (actionId: string, now: Date) => unknown;
  /** Statistics before the run's first request (the stale check), so the result counts only this run's requests. */
  readonly baseline?: ReturnType<ApplyPort["stats"]> | null;
  /** Sends of one action's request before giving up on an unknown outcome (default 5). */
  readonly maxSends?: number;
  /** First backoff between resends and re-reads, doubling (default 1000 ms, at most 16 s). */
  readonly backoffMs?: number;
  /** Shortest interval between approval polls of one project (default 15 s; longer with many waiting). */
  readonly pollIntervalMs?: number;
}
