/**
 * The views of a `validate` run, one per format (after Terraform's internal/command/views): the
 * command chooses one once and hands it the run; everything goes to stdout. Pure.
 */
import type { CampaignFile } from "../campaign/model.js";
import { policyLine, summaryLine, type ValidateSummary, validateJson } from "../campaign/validate-report.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { hiddenInfos, hiddenNote, terminalDiagnostics } from "./terminal-diagnostics.js";

/** `text`: findings, the policy line and the summary; `json`: one document (schemas/validate-result). */
export type ValidateFormat = "text" | "json";

/** One run of `validate`, whatever its format. */
export interface ValidateRun {
  readonly files: readonly CampaignFile[];
  readonly summary: ValidateSummary;
  /** Sorted. */
  readonly diagnostics: readonly Diagnostic[];
  /**
   * The policy in force: its files (farthest first; empty for none) and their texts for excerpts;
   * null when the policy could not be read (its findings are in `diagnostics`, and text shows no
   * policy line).
   */
  readonly policy: { readonly files: readonly string[]; readonly texts: ReadonlyMap<string, string> } | null;
}

export interface ValidateViewOptions {
  /** ANSI colour (the caller decides: `--no-color`, TTY, NO_COLOR). */
  readonly color: boolean;
  /** `--verbose`: info notes shown. */
  readonly verbose: boolean;
}

/** What a run prints on stdout. */
export type ValidateView = (run: ValidateRun) => string;

export function validateView(format: ValidateFormat, options: ValidateViewOptions): ValidateView {
  switch (format) {
    case "json":
      return (run) =>
        `${JSON.stringify(validateJson(run.files, run.summary, run.diagnostics, run.policy?.files ?? []), null, 2)}\n`;
    case "text":
      return (run) => {
        const sources = new Map(run.files.map((f) => [f.path, f.text]));
        for (const [file, text] of run.policy?.texts ?? []) sources.set(file, text);
        const findings = terminalDiagnostics(run.diagnostics, sources, options);
        const policy = run.policy === null ? "" : `${policyLine(run.policy.files)}\n`;
        const hidden = hiddenNote(hiddenInfos(run.diagnostics, options));
        return `${findings}${policy}${summaryLine(run.summary)}${hidden}\n`;
      };
  }
}
