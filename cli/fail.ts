/** The common end of a command that cannot go on: its diagnostics on stderr, and a failure. */
import { compareDiagnostics, type Diagnostic } from "../src/diagnostics/diagnostic.js";
import { renderDiagnosticsText } from "../src/report/diagnostics-text.js";
import { type Io, useColor } from "./io.js";
import { failure, type Outcome } from "./outcome.js";

export function failWith(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  io: Io,
): Outcome {
  const sorted = [...diagnostics].sort(compareDiagnostics);
  io.stderr(renderDiagnosticsText(sorted, { sources, color: useColor(io, "stderr") }));
  return failure;
}
