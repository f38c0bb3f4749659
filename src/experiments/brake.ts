/**
 * An experiment's brake as its arms' guards (docs/experiments.md "The brake"): `watch` pauses an
 * arm whose opt-out or failure rate crosses the brake through the one guard path (judged on each
 * poll, tripped at most once per run, paused through the write executor). Pure.
 */
import { DEFAULT_GUARD_MIN_SAMPLE, type ExperimentSpec, type GuardSpec } from "../campaign/model.js";

/**
 * The guard `watch` judges for the project at `address`: its own (`guard`, null for none)
 * tightened to the brake of the experiment it is an arm of: each rate the lower of the two, the
 * project's own `min_sample` (else the default). Unchanged for a project that is no braked arm.
 */
export function brakedGuard(
  address: string,
  guard: GuardSpec | null,
  experiments: readonly ExperimentSpec[],
): GuardSpec | null {
  const brake = experiments.find((e) => e.arms.includes(address))?.brake;
  if (brake === undefined) return guard;
  const lower = (a: number | undefined, b: number | undefined): number | undefined =>
    a === undefined ? b : b === undefined ? a : Math.min(a, b);
  const maxOptOutRate = lower(guard?.maxOptOutRate, brake.maxOptOutRate);
  const maxFailureRate = lower(guard?.maxFailureRate, brake.maxFailureRate);
  return {
    ...(maxFailureRate === undefined ? {} : { maxFailureRate }),
    ...(maxOptOutRate === undefined ? {} : { maxOptOutRate }),
    minSample: guard?.minSample ?? DEFAULT_GUARD_MIN_SAMPLE,
  };
}
