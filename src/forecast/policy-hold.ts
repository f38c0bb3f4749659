/**
 * The forecast's findings in a plan: each joins its project's diagnostics, as a warning, or as an
 * error when the policy's `forecast_errors` names it. An error holds the project's test and schedule
 * like any policy violation (src/plan/policy-hold.ts), and `after` ordering spreads the hold to its
 * dependants. The capacity's own diagnostics (conflicts) are the plan's. Pure.
 */
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { respread } from "../plan/assemble.js";
import { holdForPolicy } from "../plan/policy-hold.js";
import { summarize } from "../plan/summary.js";
import type { Plan } from "../plan/types.js";
import type { ForecastFindingName } from "../policy/model.js";
import type { Forecast, ForecastFinding } from "./types.js";

/** The policy's `forecast_errors` rule: the findings it makes errors, and where it is written. */
export interface ForecastErrorsRule {
  readonly names: readonly ForecastFindingName[];
  readonly range?: SourceRange;
}

/**
 * `forecast` with the findings `rule` names made errors (with the rule's place in `related`); the
 * forecast unchanged without a rule.
 */
export function judgeFindings(forecast: Forecast, rule?: ForecastErrorsRule): Forecast {
  if (rule === undefined) return forecast;
  const judged = new Map<Diagnostic, Diagnostic>();
  const findings = forecast.findings.map((finding): ForecastFinding => {
    const name = findingName(finding.diagnostic.code);
    if (name === undefined || !rule.names.includes(name)) return finding;
    const diagnostic = {
      ...finding.diagnostic,
      severity: "error" as const,
      ...(rule.range === undefined
        ? {}
        : { related: [{ message: "the policy's rule forecast_errors", range: rule.range }] }),
    };
    judged.set(finding.diagnostic, diagnostic);
    return { ...finding, diagnostic };
  });
  return { ...forecast, findings, diagnostics: forecast.diagnostics.map((d) => judged.get(d) ?? d) };
}

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

/** The name `forecast_errors` lists a finding by; undefined for one that is always an error. */
function findingName(code: ForecastFinding["diagnostic"]["code"]): ForecastFindingName | undefined {
  switch (code) {
    case "forecast.cap-pause":
      return "cap-pause";
    case "forecast.past-deadline":
      return "past-deadline";
    case "forecast.quiet-hours":
      return "quiet-hours";
    case "forecast.over-cap":
      return "over-cap";
    case "forecast.capacity-unknown":
      return undefined;
  }
}
