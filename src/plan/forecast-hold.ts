/**
 * The forecast's findings in a plan: each joins its project's diagnostics, as a warning, or as an
 * error when the policy's `forecast_errors` made it one (src/forecast/policy-hold.ts). An error holds
 * the project's test and schedule like any policy violation (policy-hold.ts), and `after` ordering
 * spreads the hold to its dependants. The capacity's own diagnostics (conflicts) are the plan's. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Forecast } from "../forecast/types.js";
import { respread } from "./assemble.js";
import { holdForPolicy } from "./policy-hold.js";
import { summarize } from "./summary.js";
import type { Plan } from "./types.js";

/** `plan` with `forecast`'s findings (see the file comment): an error finding holds its project. */
export function withForecastFindings(plan: Plan, forecast: Forecast): Plan {
  const byAddress = new Map<string, Diagnostic[]>();
  for (const { address, diagnostic } of forecast.findings) {
    const list = byAddress.get(address);
    if (list === undefined) byAddress.set(address, [diagnostic]);
    else list.push(diagnostic);
  }
  let held = false;
  const judged = plan.projects.map((project) => {
    const findings = byAddress.get(project.address) ?? [];
    const errors = findings.filter((d) => d.severity === "error");
    const others = findings.filter((d) => d.severity !== "error");
    if (errors.length > 0) held = true;
    return holdForPolicy({ ...project, diagnostics: [...project.diagnostics, ...others] }, errors);
  });
  const projects = held ? respread(judged) : judged;
  const findingDiagnostics = new Set<Diagnostic>(forecast.findings.map((f) => f.diagnostic));
  const diagnostics = [
    ...plan.diagnostics,
    ...forecast.diagnostics.filter((d) => !findingDiagnostics.has(d)),
  ];
  return { ...plan, projects, diagnostics, summary: summarize(projects, diagnostics) };
}
