/**
 * The counts of a plan (`PlanSummary`). Pure. Actions count by status; `drifted` counts projects
 * with at least one drift; errors and warnings count the plan's and every project's diagnostics.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { PlanSummary, ProjectPlan } from "./types.js";

export function summarize(
  projects: readonly ProjectPlan[],
  planDiagnostics: readonly Diagnostic[],
): PlanSummary {
  const actions = projects.flatMap((p) => p.actions);
  const diagnostics = [...planDiagnostics, ...projects.flatMap((p) => p.diagnostics)];
  return {
    projects: projects.length,
    planned: actions.filter((a) => a.status === "planned").length,
    deferred: actions.filter((a) => a.status === "deferred").length,
    blocked: actions.filter((a) => a.status === "blocked").length,
    drifted: projects.filter((p) => p.drift.length > 0).length,
    errors: diagnostics.filter((d) => d.severity === "error").length,
    warnings: diagnostics.filter((d) => d.severity === "warning").length,
  };
}
