/**
 * The forecast's findings in a plan: each joins its project's diagnostics, as a warning, or as an
 * error when the policy's `forecast_errors` made it one (src/forecast/policy-hold.ts). An error holds
 * the project's test and schedule like any policy violation (policy-hold.ts), and `after` ordering
 * spreads the hold to its dependants. The capacity's own diagnostics (conflicts) are the plan's. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Forecast } from "../forecast/types.js";
import { holdForPolicy } from "./policy-hold.js";
import type { ProjectPlan } from "./types.js";

/** The forecast's findings by address, in the forecast's order. */
export function findingsByAddress(forecast: Forecast): ReadonlyMap<string, readonly Diagnostic[]> {
  const byAddress = new Map<string, Diagnostic[]>();
  for (const { address, diagnostic } of forecast.findings) {
    const list = byAddress.get(address);
    if (list === undefined) byAddress.set(address, [diagnostic]);
    else list.push(diagnostic);
  }
  return byAddress;
}

/** `project` with its forecast findings (see the file comment): an error holds it (not spread here). */
export function forecastHolds(project: ProjectPlan, findings: readonly Diagnostic[]): ProjectPlan {
  if (findings.length === 0) return project;
  const errors = findings.filter((d) => d.severity === "error");
  const others = findings.filter((d) => d.severity !== "error");
  return holdForPolicy({ ...project, diagnostics: [...project.diagnostics, ...others] }, errors);
}

/** The plan's own diagnostics from the forecast: the capacity's (conflicts), not the projects' findings. */
export function forecastPlanDiagnostics(forecast: Forecast): Diagnostic[] {
  const findingDiagnostics = new Set<Diagnostic>(forecast.findings.map((f) => f.diagnostic));
  return forecast.diagnostics.filter((d) => !findingDiagnostics.has(d));
}
