/**
 * The views of a `validate` run: the summary line and the stable JSON document
 * (`format_version: 1`). Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type DiagnosticJson, diagnosticJson } from "../diagnostics/json.js";
import type { CampaignFile } from "./model.js";

export interface ValidateSummary {
  readonly files: number;
  readonly projects: number;
  readonly errors: number;
  readonly warnings: number;
}

export function summarize(
  files: readonly CampaignFile[],
  projects: number,
  diagnostics: readonly Diagnostic[],
): ValidateSummary {
  return {
    files: files.length,
    projects,
    errors: diagnostics.filter((d) => d.severity === "error").length,
    warnings: diagnostics.filter((d) => d.severity === "warning").length,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** `policy: campaignctl.policy.yaml, campaigns/campaignctl.policy.yaml` (the files in force), or `policy: none`. */
export function policyLine(policyFiles: readonly string[]): string {
  return `policy: ${policyFiles.length === 0 ? "none" : policyFiles.join(", ")}`;
}

/** `3 files, 4 projects: 1 error, 2 warnings` */
export function summaryLine(summary: ValidateSummary): string {
  return `${plural(summary.files, "file")}, ${plural(summary.projects, "project")}: ${plural(summary.errors, "error")}, ${plural(summary.warnings, "warning")}`;
}

/** The JSON document of `validate --format json`. Keys and their order are part of the format. */
export interface ValidateJson {
  readonly format_version: 1;
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
  readonly projects: number;
  /** The policy files in force (farthest first, `--policy` last); empty when no policy applies. */
  readonly policy_files: readonly string[];
  readonly diagnostics: readonly DiagnosticJson[];
  readonly summary: { readonly errors: number; readonly warnings: number };
}

/** `diagnostics` must already be sorted. */
export function validateJson(
  files: readonly CampaignFile[],
  summary: ValidateSummary,
  diagnostics: readonly Diagnostic[],
  policyFiles: readonly string[],
): ValidateJson {
  return {
    format_version: 1,
    files: files.map((f) => ({ path: f.path, sha256: f.sha256 })),
    projects: summary.projects,
    policy_files: [...policyFiles],
    diagnostics: diagnostics.map(diagnosticJson),
    summary: { errors: summary.errors, warnings: summary.warnings },
  };
}
