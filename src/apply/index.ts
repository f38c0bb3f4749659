/**
 * The executor of plans (design.md "apply"): `executePlan` walks a plan's actions against the API
 * exactly once each; `stale.ts` compares a saved plan with the files and the live state; events
 * describe progress for the journal and the progress view. Import from here only.
 */
export { type ApprovalOutcome, POLL_BUDGET_PER_MINUTE, pollInterval } from "./approval.js";
export { type BasisRead, type BasisReader, confirms, readBasis } from "./basis.js";
export { type ActionVerdict, decideRound, type RoundDecision, type RoundInput } from "./decide.js";
export { parseDuration } from "./duration.js";
export { contentFingerprint, scheduleEffect } from "./effects.js";
export type {
  ActionEndEvent,
  ActionStartEvent,
  ApiForwardEvent,
  ApplyEvent,
  ApplyEventListener,
  BackoffEvent,
  InterruptEvent,
  ResolutionEvent,
  ResponseEvent,
  RunEndEvent,
  RunStartEvent,
  SendEvent,
  Verdict,
  WaitingEvent,
} from "./events.js";
export { DEFAULT_PARALLELISM, executePlan } from "./execute.js";
export { type Judgement, judgeTransition, TARGETS } from "./judge.js";
export type { Refusal, Sendable } from "./perform.js";
export type { ApplyPort, ExecuteOptions } from "./port.js";
export {
  type Judge,
  projectsToRead,
  type ReconcileInput,
  type ReconcilePort,
  ROUND_SENDS,
  reconcile,
} from "./reconcile.js";
export {
  applySucceeded,
  NO_REQUESTS,
  refusedResult,
  requestsBetween,
  summarizeResults,
  unsentResult,
} from "./result.js";
export { compareWithReviewed, type JudgedAt, sameAsReviewed } from "./saved-plan.js";
export { settleResults, unreadableProjects } from "./settle.js";
export {
  affectedProjects,
  checkPlanSources,
  compareBaseUrl,
  compareFiles,
  compareLive,
  compareScope,
  type FileNow,
  type ProjectNow,
} from "./stale.js";
export * from "./types.js";
