/**
 * Diagnostics as a terminal report shows them, for every command: info notes only with `--verbose`,
 * and the errors last (after any warnings), so the line a user reads at the end of the output is the
 * error that stopped the command. Within each group, by file and position. Pure.
 */
import { compareDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { renderDiagnosticsText } from "./diagnostics-text.js";

/** What `--verbose` changes: whether info notes are shown. */
export interface ShowOptions {
  readonly verbose: boolean;
}

/**
 * The diagnostics a terminal report shows, in the order it shows them. Invariant: every error of
 * `diagnostics` is in the result, after every warning and info of the result.
 */
export function orderForTerminal(diagnostics: readonly Diagnostic[], options: ShowOptions): Diagnostic[] {
  const rank = (d: Diagnostic): number => (d.severity === "error" ? 1 : 0);
  return diagnostics
    .filter((d) => options.verbose || d.severity !== "info")
    .sort((a, b) => rank(a) - rank(b) || compareDiagnostics(a, b));
}

/** Info notes `orderForTerminal` leaves out without `--verbose`. */
export function hiddenInfos(diagnostics: readonly Diagnostic[], options: ShowOptions): number {
  return options.verbose ? 0 : diagnostics.filter((d) => d.severity === "info").length;
}

/** After a summary line, when info notes were left out: ` (2 info notes hidden: --verbose shows them)`. */
export function hiddenNote(hidden: number): string {
  return hidden === 0 ? "" : ` (${hidden} info note${hidden === 1 ? "" : "s"} hidden: --verbose shows them)`;
}

/**
 * The shown diagnostics, compiler-style, with source excerpts from `sources` ("" when none is
 * shown). `color`: ANSI styles, as the caller decided for the stream it writes to.
 */
export function terminalDiagnostics(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  options: ShowOptions & { readonly color: boolean },
): string {
  const shown = orderForTerminal(diagnostics, options);
  return shown.length === 0 ? "" : renderDiagnosticsText(shown, { sources, color: options.color });
}
