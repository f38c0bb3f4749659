/**
 * A failure of the server itself (a bug: a check, a completion or a hover that threw) as a finding on
 * the document, `lsp.internal-error`, so the editor shows that the file was not checked instead of
 * an empty, reassuring list. Pure.
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";

/** What was being done when it failed, in words (`checking`, `completing`, `hovering over`). */
export type ServerTask = "checking" | "completing" | "hovering over";

/** The error as one line: its message (never its stack, which names our files, not the user's). */
function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split(/\r?\n/)[0] ?? text;
}

/** The finding at the document's first character that says the server failed on it, and why. */
export function internalErrorDiagnostic(path: string, task: ServerTask, error: unknown): Diagnostic {
  const origin = { line: 1, column: 1, offset: 0 };
  return {
    severity: "error",
    code: "lsp.internal-error",
    message: `campaignctl failed while ${task} this document (internal error: ${errorText(error)}), so its findings are not shown; this is a bug in campaignctl, please report it`,
    range: { file: path, start: origin, end: origin },
    hint: "report it with the smallest file that shows it; `campaignctl validate FILE` tells whether the command line fails on it too (exit 70)",
  };
}
