/** The common end of a command that cannot go on: its diagnostics on stderr, and a failure. */

import { compareDiagnostics, type Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { diagnosticJson } from "../../src/diagnostics/json.js";
import type { Io } from "./io.js";
import { failure, type Outcome } from "./outcome.js";
import { printDiagnostics } from "./print-diagnostics.js";

/**
 * A command run with `--json` prints one JSON document on stdout even when it fails: the error
 * document (`schemas/error-result.schema.json`), with the `format_version` of the document it replaces.
 */
export interface JsonFailure {
  readonly json: boolean;
  readonly formatVersion: number;
}

/** `{format_version, error: true, diagnostics}`: what a `--json` run prints when it cannot go on. */
export function renderErrorDocument(formatVersion: number, diagnostics: readonly Diagnostic[]): string {
  const document = {
    format_version: formatVersion,
    error: true,
    diagnostics: [...diagnostics].sort(compareDiagnostics).map(diagnosticJson),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Ends a command that cannot go on: with `json.json`, the error document on stdout; always, the
 * diagnostics on stderr (info notes left out, the errors last).
 */
export function failWith(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  io: Io,
  json?: JsonFailure,
): Outcome {
  if (json?.json === true) io.stdout(renderErrorDocument(json.formatVersion, diagnostics));
  printDiagnostics(io, "stderr", diagnostics, sources, { verbose: false });
  return failure;
}
