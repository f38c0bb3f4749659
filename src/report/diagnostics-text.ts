/**
 * Renders diagnostics compiler-style: `file:line:col: severity[code]: message`, the source line with
 * carets under the range, related places, and the hint. The template instances a finding is for, when
 * it names two or more, are one note listing them (instance-places.ts), wrapped. Pure: sources are
 * passed in by file name.
 */

import { maskKeyShaped } from "../contract/key-shaped.js";
import type { Diagnostic, RelatedInformation, Severity } from "../diagnostics/diagnostic.js";
import { maskedKeys } from "../diagnostics/masked-keys.js";
import { type InstancesInFile, instanceCount, instancesByFile } from "./instance-places.js";
import { type Style, styleFor } from "./style.js";
import { visibleText } from "./visible-text.js";

/** A note listing instances wraps before this column. */
const NOTE_WIDTH = 100;

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
  const lines = new LineIndex(options.sources);
  return diagnostics.map((d) => renderOne(d, lines, style)).join("");
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

function renderOne(written: Diagnostic, sources: LineIndex, style: Style): string {
  const d = maskedKeys(written);
  const where = d.range ? `${d.range.file}:${d.range.start.line}:${d.range.start.column}: ` : "";
  let out = `${style.bold(where)}${severityLabel(d.severity, style)}[${d.code}]: ${d.message}\n`;
  if (d.range) out += excerpt(sources.line(d.range.file, d.range.start.line), d.range, style);
  out += notes(d.related ?? [], style);
  if (d.hint) out += `  ${style.cyan("hint:")} ${d.hint}\n`;
  return out;
}

/** The related places, one note each, but the instances listed in one note where the first is. */
function notes(related: readonly RelatedInformation[], style: Style): string {
  const listed = instancesByFile(related);
  let out = "";
  let done = false;
  for (const r of related) {
    if (listed !== undefined && r.instance !== undefined) {
      if (!done) out += listed.map((f) => instancesNote(f, instanceCount(listed), style)).join("");
      done = true;
      continue;
    }
    out += `  ${style.dim("note:")} ${r.message} at ${r.range.file}:${r.range.start.line}:${r.range.start.column}\n`;
  }
  return out;
}

/** `note: for 3 instances in c.yaml: adams-es, boone-es, clay-es`, wrapped between entries. */
function instancesNote(listed: InstancesInFile, count: string, style: Style): string {
  const lead = `  ${style.dim("note:")} for ${count} in ${listed.file}:`;
  const lines: string[] = [];
  let line = lead;
  let width = `  note: for ${count} in ${listed.file}:`.length;
  listed.entries.forEach((entry, i) => {
    const word = ` ${entry}${i < listed.entries.length - 1 ? "," : ""}`;
    if (width + word.length > NOTE_WIDTH && line !== lead) {
      lines.push(line);
      line = "       ";
      width = line.length;
    }
    line += word;
    width += word.length;
  });
  lines.push(line);
  return `${lines.join("\n")}\n`;
}

function excerpt(lines: string | undefined, range: NonNullable<Diagnostic["range"]>, style: Style): string {
  if (lines === undefined) return "";
  const lineNo = range.start.line;
  // A control character of the file shown as U+FFFD (one column, as the caret counts it), never
  // printed: the terminal would act on it. A tab stays a tab, which the caret's padding repeats. An
  // API key written in the file is shown as `*` (its error says where it is).
  const line = maskKeyShaped(lines);
  const cut = line.length > 200 ? `${line.slice(0, 200)}…` : line;
  const shown = cut.split("\t").map(visibleText).join("\t");
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

/**
 * Lines of the sources, indexed on first use: each diagnostic's excerpt is then one lookup, so
 * rendering is linear in the text plus the diagnostics (it was a scan from the file's start per
 * diagnostic). Line breaks are LF, CRLF and a lone CR, as the loader reads them.
 */
class LineIndex {
  private readonly starts = new Map<string, readonly number[]>();

  constructor(private readonly sources: ReadonlyMap<string, string>) {}

  /** Line `lineNo` (1-based) of `file` without its line break, or undefined. */
  line(file: string, lineNo: number): string | undefined {
    const text = this.sources.get(file);
    if (text === undefined) return undefined;
    let starts = this.starts.get(file);
    if (starts === undefined) {
      starts = lineStarts(text);
      this.starts.set(file, starts);
    }
    const start = starts[lineNo - 1];
    if (start === undefined) return undefined;
    const next = starts[lineNo];
    const end = next === undefined ? text.length : next;
    return text.slice(start, end).replace(/\r?\n$|\r$/, "");
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}
