/**
 * How diagnostics reach a terminal, for every command: the shown ones in their terminal order
 * (src/report/terminal-diagnostics.ts), written to one stream with colour when that stream allows it.
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { type ShowOptions, terminalDiagnostics } from "../../src/report/terminal-diagnostics.js";
import { type Io, useColor } from "./io.js";

/** Writes the shown diagnostics to `stream`, compiler-style, with source excerpts from `sources`. */
export function printDiagnostics(
  io: Io,
  stream: "stdout" | "stderr",
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  options: ShowOptions & { readonly color?: boolean },
): void {
  const color = (options.color ?? true) && useColor(io, stream);
  const text = terminalDiagnostics(diagnostics, sources, { verbose: options.verbose, color });
  if (text === "") return;
  if (stream === "stdout") io.stdout(text);
  else io.stderr(text);
}
