/**
 * Renders diagnostics compiler-style: `file:line:col: severity[code]: message`, the source line with
 * carets under the range, related places, and the hint. Pure: sources are passed in by file name.
 */
import type { Diagnostic, Severity } from "../diagnostics/diagnostic.js";
import { type Style, styleFor } from "./style.js";

export interface DiagnosticsTextOptions {
  /** File name to file text, for the source excerpt; a file not in it is rendered without one. */
  readonly sources: ReadonlyMap<string, string>;
  readonly color: boolean;
}

export function renderDiagnosticsText(
  diagnostics: readonly Diagnostic[],
  options: DiagnosticsTextOptions,
): string {
  const style = styleFor(options.color);
  return diagnostics.map((d) => renderOne(d, options.sources, style)).join("");
}

function severityLabel(severity: Severity, style: Style): string {
  switch (severity) {
    case "error":
      return style.red(style.bold("error"));
    case "warning":
      return style.yellow(style.bold("warning"));
    case "info":
      return style.cyan(style.bold("info"));
  }
}

function renderOne(d: Diagnostic, sources: ReadonlyMap<string, string>, style: Style): string {
  const where = d.range ? `${d.range.file}:${d.range.start.line}:${d.range.start.column}: ` : "";
  let out = `${style.bold(where)}${severityLabel(d.severity, style)}[${d.code}]: ${d.message}\n`;
  if (d.range) out += excerpt(sources.get(d.range.file), d.range, style);
  for (const r of d.related ?? []) {
    out += `  ${style.dim("note:")} ${r.message} at ${r.range.file}:${r.range.start.line}:${r.range.start.column}\n`;
  }
  if (d.hint) out += `  ${style.cyan("hint:")} ${d.hint}\n`;
  return out;
}

function excerpt(text: string | undefined, range: NonNullable<Diagnostic["range"]>, style: Style): string {
  if (text === undefined) return "";
  const lineNo = range.start.line;
  const lines = lineAt(text, lineNo);
  if (lines === undefined) return "";
  const shown = lines.length > 200 ? `${lines.slice(0, 200)}…` : lines;
  const gutter = String(lineNo);
  const pad = " ".repeat(gutter.length);
  const startCol = Math.min(range.start.column, shown.length + 1);
  const endCol =
    range.end.line === range.start.line ? Math.min(range.end.column, shown.length + 1) : shown.length + 1;
  const width = Math.max(1, endCol - startCol);
  const caretPad = shown.slice(0, startCol - 1).replace(/[^\t]/g, " ");
  return (
    `  ${style.dim(`${gutter} |`)} ${shown}\n` +
    `  ${style.dim(`${pad} |`)} ${caretPad}${style.red("^".repeat(width))}\n`
  );
}

function lineAt(text: string, lineNo: number): string | undefined {
  let start = 0;
  for (let i = 1; i < lineNo; i++) {
    const next = text.indexOf("\n", start);
    if (next < 0) return undefined;
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, "");
}
