/**
 * The policy's `forecast_errors` on a forecast: the findings it names become errors, pointing at the
 * rule. The plan's judge (src/plan/judge.ts) then holds their projects (src/plan/forecast-hold.ts).
 * Pure.
 */
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
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
