/**
 * What the YAML slip finders share (see yaml-slips.ts): the finding types, the file read as lines
 * (comments and blank lines left out, block scalar text marked), and the lookups of library errors
 * by offset and by line. Pure; linear or better in the file's length.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { YamlProblem } from "./yaml-tabs.js";

/**
 * A finding and the library errors it replaces: those that start in `[from, to)` (offsets into the
 * file's text; `to` is Infinity when the rest of the file is the slip's cascade).
 */
export interface Slip {
  readonly diagnostic: Diagnostic;
  readonly from: number;
  readonly to: number;
}

export interface Found extends Slip {
  readonly firstError: YamlProblem;
}

/** The errors of `sorted` (by start) that start in `[from, to)`: a binary search for the first. */
export function errorsIn(sorted: readonly YamlProblem[], from: number, to: number): YamlProblem[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid]?.pos[0] ?? 0) < from) lo = mid + 1;
    else hi = mid;
  }
  const out: YamlProblem[] = [];
  for (let i = lo; i < sorted.length && (sorted[i]?.pos[0] ?? to) < to; i++) {
    const e = sorted[i];
    if (e !== undefined) out.push(e);
  }
  return out;
}

export interface Line {
  readonly start: number;
  readonly end: number;
  readonly indent: number;
  /** The content after the indentation, without a trailing CR. */
  readonly content: string;
  /** Inside a block scalar (`|`, `>`) opened above: text, not structure. */
  readonly inBlock: boolean;
}

const BLOCK_SCALAR = /:[ \t]+[|>][-+0-9]*[ \t]*(?:#.*)?$/;

export function readLines(text: string): Line[] {
  const out: Line[] = [];
  let blockAt: number | undefined;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const raw = text.slice(start, end).replace(/\r$/, "");
    const content = raw.trimStart();
    const indent = raw.length - content.length;
    if (content !== "" && !content.startsWith("#")) {
      const inBlock = blockAt !== undefined && indent > blockAt;
      if (!inBlock) blockAt = undefined;
      out.push({ start, end, indent, content, inBlock });
      if (!inBlock && BLOCK_SCALAR.test(content)) blockAt = indent;
    }
    start = end + 1;
  }
  return out;
}

/** The errors that start on each line (by its index in `lines`), the line's end included. Linear. */
export function errorsOnLines(
  lines: readonly Line[],
  errors: readonly YamlProblem[],
): Map<number, YamlProblem[]> {
  const out = new Map<number, YamlProblem[]>();
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  let i = 0;
  for (const error of sorted) {
    while (i < lines.length && (lines[i]?.end ?? 0) < error.pos[0]) i++;
    const line = lines[i];
    if (line === undefined) break;
    if (error.pos[0] < line.start) continue;
    const list = out.get(i);
    if (list === undefined) out.set(i, [error]);
    else list.push(error);
  }
  return out;
}

/** The offset where the block of `lines[i]` ends: the start of the next line indented no deeper. */
export function blockEnd(lines: readonly Line[], i: number, textLength: number): number {
  const line = lines[i];
  if (line === undefined) return textLength;
  for (let k = i + 1; k < lines.length; k++) {
    const next = lines[k];
    if (next !== undefined && !next.inBlock && next.indent <= line.indent) return next.start;
  }
  return textLength;
}
