/**
 * A diagnostic's fixes (src/diagnostics/diagnostic.ts DiagnosticFix) as edits of the document's
 * source, pure: the value text each fix names is written in the quoting of the scalar it lands in
 * (`"` and `\` escaped in a double-quoted string, `'` doubled in a single-quoted one), a
 * replaced value is written as a double-quoted string, and appended wording goes before a quoted
 * string's closing quote or after a plain or block text's last character, after a space.
 */

import type { Range, TextEdit } from "vscode-languageserver";
import { isScalar, LineCounter, parseDocument, type Scalar, visit } from "yaml";
import type { Diagnostic, DiagnosticFix, SourceRange } from "../../src/diagnostics/diagnostic.js";
import { lspRange } from "./lsp-diagnostic.js";

/** One code action's worth: a title and the edits that make the fix. */
export interface FixEdits {
  readonly title: string;
  readonly edits: readonly TextEdit[];
  /** The first fix of a diagnostic is the one the hint puts first. */
  readonly preferred: boolean;
}

interface ScalarAt {
  readonly type: Scalar.Type | undefined;
  /** Offsets of the scalar's source: its first character and the end of its value. */
  readonly start: number;
  readonly end: number;
}

/** Every scalar of the document (keys too) with its source span; parsed once per document. */
export function scalarsOf(text: string): ScalarAt[] {
  const doc = parseDocument(text, { lineCounter: new LineCounter(), uniqueKeys: false });
  const out: ScalarAt[] = [];
  visit(doc, {
    Scalar: (_key, node) => {
      if (node.range) out.push({ type: node.type, start: node.range[0], end: node.range[1] });
    },
    Pair: (_key, pair) => {
      if (isScalar(pair.key) && pair.key.range)
        out.push({ type: pair.key.type, start: pair.key.range[0], end: pair.key.range[1] });
    },
  });
  return out;
}

/** The innermost scalar whose source holds [start, end). */
function scalarHolding(scalars: readonly ScalarAt[], start: number, end: number): ScalarAt | undefined {
  let best: ScalarAt | undefined;
  for (const s of scalars)
    if (s.start <= start && end <= s.end && (best === undefined || s.end - s.start < best.end - best.start))
      best = s;
  return best;
}

/** `value` as it is written inside a scalar of `type`. */
function escapeFor(type: Scalar.Type | undefined, value: string): string {
  switch (type) {
    case "QUOTE_DOUBLE":
      return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
    case "QUOTE_SINGLE":
      return value.replace(/'/g, "''");
    default:
      return value;
  }
}

/** A 0-based offset of `text` as an LSP position (UTF-16, as both count). */
function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++)
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  return { line, character: offset - lineStart };
}

function rangeOf(text: string, start: number, end: number): Range {
  return { start: positionAt(text, start), end: positionAt(text, end) };
}

function editsOf(
  text: string,
  scalars: readonly ScalarAt[],
  at: SourceRange,
  fix: DiagnosticFix,
): TextEdit[] | undefined {
  switch (fix.edit) {
    case "replace-text":
      return [at, ...(fix.also ?? [])].map((r) => {
        const scalar = scalarHolding(scalars, r.start.offset, r.end.offset);
        const written = escapeFor(scalar?.type, fix.text);
        // A whole quoted scalar replaced keeps its quotes.
        const whole = scalar !== undefined && scalar.start === r.start.offset && scalar.end === r.end.offset;
        const quote = scalar?.type === "QUOTE_DOUBLE" ? '"' : scalar?.type === "QUOTE_SINGLE" ? "'" : "";
        return { range: lspRange(r), newText: whole ? `${quote}${written}${quote}` : written };
      });
    case "replace-value":
      return [{ range: lspRange(at), newText: JSON.stringify(fix.text) }];
    case "append-text": {
      const scalar = scalarHolding(scalars, at.start.offset, at.start.offset + 1);
      if (scalar === undefined) return undefined;
      const quoted = scalar.type === "QUOTE_DOUBLE" || scalar.type === "QUOTE_SINGLE";
      let end = quoted ? scalar.end - 1 : scalar.end;
      // A plain or block text ends at its last character, not after the line breaks that follow.
      if (!quoted) while (end > scalar.start && /\s/.test(text[end - 1] ?? "")) end--;
      const before = text[end - 1] ?? "";
      const gap = /\s/.test(before) || (quoted && end === scalar.start + 1) ? "" : " ";
      return [{ range: rangeOf(text, end, end), newText: escapeFor(scalar.type, `${gap}${fix.text}`) }];
    }
  }
}

/** The fixes of `d` (a diagnostic about the document `text`) as edits; none where it has no range. */
export function fixEdits(text: string, d: Diagnostic, scalars: readonly ScalarAt[]): FixEdits[] {
  const range = d.range;
  if (range === undefined) return [];
  return (d.fixes ?? []).flatMap((fix, i) => {
    const edits = editsOf(text, scalars, range, fix);
    return edits === undefined ? [] : [{ title: fix.title, edits, preferred: i === 0 }];
  });
}
