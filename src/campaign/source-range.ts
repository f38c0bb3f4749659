/** Turns offsets of a file's text into the Diagnostic's 1-based line/column ranges. */
import type { LineCounter } from "yaml";
import type { SourcePosition, SourceRange } from "../diagnostics/diagnostic.js";

/**
 * A file's text with its line index. Invariant: `lineCounter` was filled by parsing exactly `text`
 * (or by `indexLines`), so every offset in `[0, text.length]` maps to a position.
 */
export interface SourceText {
  readonly file: string;
  readonly text: string;
  readonly lineCounter: LineCounter;
}

export function positionAt(source: SourceText, offset: number): SourcePosition {
  const clamped = Math.max(0, Math.min(offset, source.text.length));
  const { line, col } = source.lineCounter.linePos(clamped);
  return { line, column: col, offset: clamped };
}

/** The range `[start, end)` of the file; `end` below `start` is raised to `start`. */
export function rangeAt(source: SourceText, start: number, end: number): SourceRange {
  const from = positionAt(source, start);
  const to = positionAt(source, Math.max(start, end));
  return { file: source.file, start: from, end: to };
}

/** The start of a file, for problems of the file as a whole. */
export function fileStart(file: string): SourceRange {
  const origin = { line: 1, column: 1, offset: 0 };
  return { file, start: origin, end: origin };
}
