/**
 * Every experiment of the campaign files with its verdict, from the arms' counters however they
 * were read: `status` from the live statistics, `results` from the store over a period. The one
 * model the views (src/report/experiments-view.ts) render. Pure.
 */
import type { ExperimentSpec } from "../campaign/model.js";
import { type ArmCounters, decideVerdict, type Verdict } from "./verdict.js";

/**
 * One experiment's result. Invariant: `unread` lists the arms whose counters were unknown (not
 * listed by the statistics, or not recorded); they count as nothing sent in `verdict`.
 */
export interface ExperimentResult {
  readonly experiment: ExperimentSpec;
  readonly verdict: Verdict;
  readonly unread: readonly string[];
}

const NOTHING: ArmCounters = { sent: 0, delivered: 0, replies: 0, optedOut: 0, uniqueClicks: 0 };

/** The results of `experiments`; `countersOf` gives an arm's counters by address (null: unknown). */
export function experimentResults(
  experiments: readonly ExperimentSpec[],
  countersOf: (address: string) => ArmCounters | null,
): ExperimentResult[] {
  return experiments.map((experiment) => {
    const unread: string[] = [];
    const arms = experiment.arms.map((name) => {
      const counters = countersOf(name);
      if (counters === null) unread.push(name);
      return { name, counters: counters ?? NOTHING };
    });
    return { experiment, verdict: decideVerdict(experiment.metric, experiment.minSample, arms), unread };
  });
}
