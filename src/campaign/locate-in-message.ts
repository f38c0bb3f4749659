/**
 * Maps character indexes of a YAML scalar's value back to offsets in the file's text, so a problem
 * inside a message (a bad merge tag) can be shown exactly where it is written. Pure.
 */
import { Scalar } from "yaml";
import { TextMemo } from "../message/memo.js";
import type { Span } from "./yaml-path.js";

/**
 * Each scalar's offsets relative to its start, by its written text and style, with the value they
 * were computed for (memo.ts): where each character sits follows from the written text and the
 * value alone, and the projects of a file often write the same message (a lint finding in each
 * locates it once, not once per project).
 */
const relativeOffsets = new TextMemo<{
  readonly value: string;
  readonly offsets: number[] | EscapedOffsets | undefined;
}>();

/**
 * Returns a function from a value range `[start, end)` to a source span. Non-whitespace characters
 * map exactly for plain, single-quoted, double-quoted (without escapes) and block scalars; folded
 * whitespace maps approximately. A double-quoted scalar with escapes maps exactly when it is written
 * on one line (an escape's characters map to the whole escape, `\u200B` included); a multi-line one
 * with escapes, or anything unexpected, maps to the whole scalar.
 */
export function scalarValueMapper(text: string, node: Scalar): (start: number, end: number) => Span {
  const range = node.range;
  if (!range) return () => [0, 0];
  const base = range[0];
  const whole: Span = [range[0], range[1]];
  const value = typeof node.value === "string" ? node.value : String(node.value);
  const compute = () => {
    const found = valueOffsets(text, node, range[0], range[1]);
    return { value, offsets: found === undefined ? undefined : relativeTo(found, base) };
  };
  const known = relativeOffsets.get(text.slice(range[0], range[1]), String(node.type), compute);
  // The same written text with another value (an indentation indicator read against another parent).
  const mapped = (known.value === value ? known : compute()).offsets;
  if (mapped === undefined) return () => whole;
  const offsets = Array.isArray(mapped) ? mapped : mapped.starts;
  const ends = Array.isArray(mapped) ? undefined : mapped.ends;
  return (start, end) => {
    const length = offsets.length;
    const s = clamp(start, 0, length);
    const e = clamp(end, s, length);
    const at = (relative: number | undefined) => (relative === undefined ? undefined : base + relative);
    const from = s < length ? (at(offsets[s]) ?? whole[0]) : whole[1];
    const to = e > s ? (at(ends?.[e - 1]) ?? (at(offsets[e - 1]) ?? whole[1] - 1) + 1) : from;
    return [from, to];
  };
}

/** Offsets made relative to `base` (the scalar's start). */
function relativeTo(found: number[] | EscapedOffsets, base: number): number[] | EscapedOffsets {
  if (Array.isArray(found)) return found.map((o) => o - base);
  return { starts: found.starts.map((o) => o - base), ends: found.ends.map((o) => o - base) };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(Math.max(Number.isFinite(n) ? Math.trunc(n) : lo, lo), hi);
}

function contentStart(text: string, node: Scalar, start: number): number | undefined {
  switch (node.type) {
    case Scalar.PLAIN:
      return start;
    case Scalar.QUOTE_SINGLE:
      return start + 1;
    case Scalar.QUOTE_DOUBLE:
      return start + 1;
    case Scalar.BLOCK_LITERAL:
    case Scalar.BLOCK_FOLDED: {
      const header = text.indexOf("\n", start);
      return header < 0 ? undefined : header + 1;
    }
    case undefined:
      return undefined;
  }
}

/** Whether the UTF-16 unit `code` is whitespace as `/\s/` means it (this runs once per character). */
function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Where each value character starts in the text, and (for escapes) where it ends. */
interface EscapedOffsets {
  readonly starts: number[];
  readonly ends: number[];
}

function valueOffsets(
  text: string,
  node: Scalar,
  start: number,
  end: number,
): number[] | EscapedOffsets | undefined {
  const value = typeof node.value === "string" ? node.value : String(node.value);
  if (node.type === Scalar.QUOTE_DOUBLE && text.slice(start, end).includes("\\"))
    return escapedOffsets(text, value, start, end);
  const from = contentStart(text, node, start);
  if (from === undefined) return undefined;
  const offsets: number[] = new Array(value.length);
  let j = from;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (isWhitespace(value.charCodeAt(i))) {
      // Folding turns line breaks and indentation into fewer (or other) whitespace characters.
      offsets[i] = Math.min(j, end);
      if (text[j] === c) j++;
      continue;
    }
    const found = text.indexOf(c, j);
    if (found < 0 || found >= end) return undefined;
    offsets[i] = found;
    j = found + 1;
  }
  return offsets;
}

/** Length of the escape's text after the backslash, by its letter (YAML 1.2 double-quoted escapes). */
function escapeLength(letter: string): number {
  switch (letter) {
    case "x":
      return 3;
    case "u":
      return 5;
    case "U":
      return 9;
    default:
      return 1;
  }
}

/**
 * Offsets of a one-line double-quoted scalar with escapes: walks the written text; every value
 * character an escape produces (two for an astral `\U`) maps to the whole escape.
 * Returns undefined when the walk does not reproduce `value` (a multi-line scalar, folding).
 */
function escapedOffsets(text: string, value: string, start: number, end: number): EscapedOffsets | undefined {
  const raw = text.slice(start + 1, end - 1);
  if (raw.includes("\n")) return undefined;
  const offsets: number[] = [];
  const ends: number[] = [];
  let produced = "";
  let k = 0;
  while (k < raw.length) {
    const at = start + 1 + k;
    if (raw[k] !== "\\") {
      offsets.push(at);
      ends.push(at + 1);
      produced += raw[k];
      k++;
      continue;
    }
    const length = 1 + escapeLength(raw[k + 1] ?? "");
    const expected = value.slice(produced.length);
    // The escape's value is whatever `value` holds next: 1 unit, or 2 for an astral `\U`.
    const units = raw[k + 1] === "U" && (expected.codePointAt(0) ?? 0) > 0xffff ? 2 : 1;
    for (let u = 0; u < units; u++) {
      offsets.push(at);
      ends.push(at + length);
    }
    produced += expected.slice(0, units);
    k += length;
  }
  if (offsets.length !== value.length || produced !== value) return undefined;
  return { starts: offsets, ends };
}
