/** The part of the API client the reconciliation loop uses, and the injected time it runs on. */
import type { ApiClient, Clock, Sleep } from "../api/index.js";
import type { ApplyEventListener } from "./events.js";

/**
 * The client subset the loop's sends need (`perform.ts`): the three actions, the project read (to
 * resolve an unknown outcome) and the accounting. The basis reads add `BasisReader` (`reconcile.ts`).
 */
export type ApplyPort = Pick<
  ApiClient,
  "testProject" | "scheduleProject" | "pauseProject" | "getProject" | "stats"
>;

/** Independent actions in flight at once unless `--parallelism` says otherwise. */
export const DEFAULT_PARALLELISM = 4;

/** Options of `reconcile`. Everything with time or IO is injected (tests run on a virtual clock). */
export interface ReconcileOptions {
  /**
   * Independent actions in flight at once ({@link DEFAULT_PARALLELISM} from the CLI); every request
   * still goes through the one limiter.
   */
  readonly parallelism: number;
  readonly clock: Clock;
  /**
   * The loop's own waits (backoff between resends, approval polls). It may resolve early when
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
  /** Statistics before the run's first request (the stale check), so the result counts only this run's requests. */
  readonly baseline?: ReturnType<ApplyPort["stats"]> | null;
  /** N: attempts of one action's request in total, whatever the answers (default 5; see `perform.ts`). */
  readonly maxSends?: number;
  /** First wait between two attempts of a write, doubling (default 1000 ms, at most 16 s), raised to `Retry-After`. */
  readonly backoffMs?: number;
  /** Shortest interval between approval polls (default 15 s; see `pollInterval`). */
  readonly pollIntervalMs?: number;
}
