/**
 * The experiments of a results report: each arm's figures over the period from the store's
 * snapshots (`armFigures`), an arm with no snapshot being unknown. Pure.
 */
import type { ExperimentSpec } from "../campaign/model.js";
import { type ExperimentResult, experimentResults } from "../experiments/report.js";
import type { Period } from "./period.js";
import { armFigures } from "./report.js";
import type { ResultsSnapshot } from "./snapshot.js";

export function resultsExperiments(
  experiments: readonly ExperimentSpec[],
  ids: ReadonlyMap<string, string>,
  snapshots: readonly ResultsSnapshot[],
  period: Period,
): ExperimentResult[] {
  return experimentResults(experiments, (address) => {
    const id = ids.get(address);
    if (id === undefined) return null;
    const arm = armFigures(snapshots, [id], period.startMs, period.endMs);
    if (arm.projects === 0) return null;
    const f = arm.figures;
    return {
      sent: f.sent,
      delivered: f.delivered,
      replies: f.replies,
      optedOut: f.optedOut,
      uniqueClicks: f.uniqueClicks,
    };
  });
}
