/**
 * The views of a `preview` run, one per format (after Terraform's internal/command/views): the
 * command chooses one once and hands it the run; the view says what goes to stdout and to stderr.
 * Pure.
 */

import type { CampaignFile } from "../campaign/model.js";
import { summarize, summaryLine } from "../campaign/validate-report.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnosticJson } from "../diagnostics/json.js";
import { PREVIEW_FORMAT_VERSION, type ProjectPreview } from "../message/preview.js";
import { renderPreviewText } from "./preview-text.js";
import { hiddenInfos, hiddenNote, terminalDiagnostics } from "./terminal-diagnostics.js";

/** `text`: previews on stdout, problems and their summary on stderr; `json`: one document on stdout. */
export type PreviewFormat = "text" | "json";

/** One run of `preview`, whatever its format. */
export interface PreviewRun {
  readonly files: readonly CampaignFile[];
  /** The projects the run was about (the summary's count), previewed or not. */
  readonly projectCount: number;
  readonly previews: readonly ProjectPreview[];
  /** Sorted. */
  readonly diagnostics: readonly Diagnostic[];
  /** `--html` wrote the gallery: in text it replaces the previews (problems are still shown). */
  readonly gallery: boolean;
}

export interface PreviewViewOptions {
  /** ANSI colour for the previews on stdout (the caller decides: `--no-color`, TTY, NO_COLOR). */
  readonly stdoutColor: boolean;
  /** ANSI colour for the problems on stderr. */
  readonly stderrColor: boolean;
  /** `--verbose`: info notes shown. */
  readonly verbose: boolean;
}

/** What a run prints on each stream ("" for nothing). */
export interface Printed {
  readonly stdout: string;
  readonly stderr: string;
}

export type PreviewView = (run: PreviewRun) => Printed;

export function previewView(format: PreviewFormat, options: PreviewViewOptions): PreviewView {
  switch (format) {
    case "json":
      return (run) => {
        const document = {
          format_version: PREVIEW_FORMAT_VERSION,
          projects: run.previews,
          diagnostics: run.diagnostics.map(diagnosticJson),
        };
        return { stdout: `${JSON.stringify(document, null, 2)}\n`, stderr: "" };
      };
    case "text":
      return (run) => {
        const previews = run.gallery ? [] : run.previews;
        const stdout = previews.length > 0 ? renderPreviewText(previews, options.stdoutColor) : "";
        if (run.diagnostics.length === 0) return { stdout, stderr: "" };
        const sources = new Map(run.files.map((f) => [f.path, f.text]));
        const show = { verbose: options.verbose, color: options.stderrColor };
        const summary = summaryLine(summarize(run.files, run.projectCount, run.diagnostics));
        const hidden = hiddenNote(hiddenInfos(run.diagnostics, show));
        return {
          stdout,
          stderr: `${terminalDiagnostics(run.diagnostics, sources, show)}${summary}${hidden}\n`,
        };
      };
  }
}
