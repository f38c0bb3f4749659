/**
 * The experiments of a status report: each arm's counters from its project's live statistics (an
 * arm without a statistics row is unknown). Pure.
 */
import type { ExperimentSpec } from "../campaign/model.js";
import { type ExperimentResult, experimentResults } from "../experiments/report.js";
import type { ProjectFigures } from "./figures.js";

export function statusExperiments(
  experiments: readonly ExperimentSpec[],
  projects: readonly ProjectFigures[],
): ExperimentResult[] {
  const byAddress = new Map(projects.map((p) => [p.address, p]));
  return experimentResults(experiments, (address) => {
    const p = byAddress.get(address);
    if (p === undefined || p.source !== "statistics") return null;
    return {
      sent: p.sent ?? 0,
      delivered: p.delivered ?? 0,
      replies: p.replies ?? 0,
      optedOut: p.optedOut ?? 0,
      uniqueClicks: p.uniqueClicks ?? 0,
    };
  });
}
