/**
 * Apply (design.md "Plan"): `reconcile` is the reconciliation loop `apply` runs (its state in
 * `loop-state.ts`, one round in `loop-round.ts`: fresh basis reads in `basis.ts`, the pure decision
 * step in `decide.ts`, sends in `dispatch.ts` and `perform.ts`; the effect check of an unknown
 * outcome in `effect-check.ts`, approval polling's pace in `poll.ts`, end results in `settle.ts`);
 * `stale.ts` and `saved-plan.ts` compare a saved plan with the files and the live state
 * (`already-applied.ts`: whether a saved plan's every action is already in effect); events
 * describe progress for the journal and the progress view. Import from here only.
 */

export {
  type AlreadyApplied,
  type AlreadyAppliedInput,
  alreadyApplied,
  alreadyAppliedResult,
  SETTLED,
} from "./already-applied.js";
export type { ApprovalsGate } from "./approvals-gate.js";
export { type BasisRead, type BasisReader, confirms, readBasis } from "./basis.js";
export { type ActionVerdict, decideRound, type RoundDecision, type RoundInput } from "./decide.js";
export { checkEffect, type EffectCheck } from "./effect-check.js";
export type {
  ActionEndEvent,
  ActionStartEvent,
  ApiForwardEvent,
  ApplyEvent,
  ApplyEventListener,
  BackoffEvent,
  EffectVerdict,
  InterruptEvent,
  ResolutionEvent,
  ResponseEvent,
  RunEndEvent,
  RunStartEvent,
  SendEvent,
  WaitingEvent,
} from "./events.js";
export { projectsToRead } from "./loop-round.js";
export type { Refusal, Sendable } from "./perform.js";
export { pollInterval } from "./poll.js";
export { type ApplyPort, DEFAULT_PARALLELISM, type ReconcileOptions } from "./port.js";
export { type ReconcileInput, type ReconcilePort, reconcile } from "./reconcile.js";
export {
  applySucceeded,
  countOutcomes,
  NO_OUTCOMES,
  outcomeCountKey,
  refusedResult,
  requestsBetween,
  summarizeResults,
  unsentResult,
} from "./result.js";
export { compareEmailLists } from "./saved-email.js";
export { compareSavedWithFresh, compareWithReviewed, type JudgedAt, sameAsReviewed } from "./saved-plan.js";
export { type Judge, sendable } from "./sendable.js";
export { settleResults, unreadableProjects } from "./settle.js";
export {
  checkPlanSources,
  compareBaseUrl,
  compareFiles,
  compareInputs,
  compareLive,
  comparePolicy,
  compareScope,
  type FileNow,
  type ProjectNow,
} from "./stale.js";
export * from "./types.js";
