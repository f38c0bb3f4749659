/**
 * Our Diagnostic as the Language Server Protocol's, pure. Positions: ours are 1-based line and
 * column counting UTF-16 code units (src/diagnostics/diagnostic.ts), LSP's are 0-based line and
 * character in UTF-16 code units (the protocol's default position encoding), so each is one less;
 * a character outside the Basic Multilingual Plane counts two on both sides. The hint, which LSP has
 * no field for, follows the message on a line of its own (`hint: ...`); related places become
 * relatedInformation. A diagnostic without a range, or about another file (a policy file), sits at
 * the document's start and names its place, so nothing validate reports is dropped.
 */
import { pathToFileURL } from "node:url";
import {
  type DiagnosticRelatedInformation,
  DiagnosticSeverity,
  type Diagnostic as LspDiagnostic,
  type Position,
  type Range,
} from "vscode-languageserver";
import type { Diagnostic, Severity, SourcePosition, SourceRange } from "../../src/diagnostics/diagnostic.js";
import { maskedKeys } from "../../src/diagnostics/masked-keys.js";

/** The `source` of every diagnostic the server publishes. */
export const LSP_SOURCE = "campaignctl";

/** A 1-based line/column (UTF-16) position as LSP's 0-based line/character (UTF-16). */
export function lspPosition(position: SourcePosition): Position {
  return { line: position.line - 1, character: position.column - 1 };
}

/** A source range as an LSP range (its file is the document's, or named elsewhere). */
export function lspRange(range: SourceRange): Range {
  return { start: lspPosition(range.start), end: lspPosition(range.end) };
}

export function lspSeverity(severity: Severity): DiagnosticSeverity {
  switch (severity) {
    case "error":
      return DiagnosticSeverity.Error;
    case "warning":
      return DiagnosticSeverity.Warning;
    case "info":
      return DiagnosticSeverity.Information;
  }
}

const DOCUMENT_START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** Each file's URI, by path: a template's finding names up to thousands of places in one file. */
const uris = new Map<string, string>();

function uriOf(file: string): string {
  let uri = uris.get(file);
  if (uri === undefined) {
    if (uris.size >= 1024) uris.clear();
    uri = pathToFileURL(file).href;
    uris.set(file, uri);
  }
  return uri;
}

function where(range: SourceRange): string {
  return `${range.file}:${range.start.line}:${range.start.column}`;
}

/**
 * `d` as published on the document whose file is `file` (the path its ranges name). A diagnostic
 * about another file is placed at the document's start, its message prefixed with its place.
 */
export function toLspDiagnostic(written: Diagnostic, file: string): LspDiagnostic {
  const d = maskedKeys(written);
  const here = d.range !== undefined && d.range.file === file;
  const elsewhere = d.range !== undefined && !here ? `${where(d.range)}: ` : "";
  const message = `${elsewhere}${d.message}${d.hint === undefined ? "" : `\nhint: ${d.hint}`}`;
  const related: DiagnosticRelatedInformation[] = (d.related ?? []).map((r) => ({
    message: r.message,
    location: { uri: uriOf(r.range.file), range: lspRange(r.range) },
  }));
  if (d.range !== undefined && !here)
    related.unshift({
      message: d.message,
      location: { uri: uriOf(d.range.file), range: lspRange(d.range) },
    });
  return {
    range: here && d.range !== undefined ? lspRange(d.range) : DOCUMENT_START,
    severity: lspSeverity(d.severity),
    code: d.code,
    source: LSP_SOURCE,
    message,
    ...(related.length === 0 ? {} : { relatedInformation: related }),
  };
}
