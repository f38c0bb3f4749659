/**
 * How reports head a group of diagnostics: by severity, most severe first ("Errors", "Warnings",
 * "Notes"), never "Problems" (an info note is not a problem). Pure.
 */
import type { Diagnostic, Severity } from "../diagnostics/diagnostic.js";

export const SEVERITY_ORDER: readonly Severity[] = ["error", "warning", "info"];

export function severityHeading(severity: Severity): string {
  switch (severity) {
    case "error":
      return "Errors";
    case "warning":
      return "Warnings";
    case "info":
      return "Notes";
  }
}

/** The diagnostics grouped by severity, most severe first; severities without any are left out. */
export function bySeverity(
  diagnostics: readonly Diagnostic[],
): readonly { readonly severity: Severity; readonly diagnostics: readonly Diagnostic[] }[] {
  return SEVERITY_ORDER.map((severity) => ({
    severity,
    diagnostics: diagnostics.filter((d) => d.severity === severity),
  })).filter((g) => g.diagnostics.length > 0);
}
