/**
 * Maps character indexes of a YAML scalar's value back to offsets in the file's text, so a problem
 * inside a message (a bad merge tag) can be shown exactly where it is written. Pure.
 */
import { Scalar } from "yaml";
import type { Span } from "./yaml-path.js";

/**
 * Returns a function from a value range `[start, end)` to a source span. Non-whitespace characters
 * map exactly for plain, single-quoted, double-quoted (without escapes) and block scalars; folded
 * whitespace maps approximately. A double-quoted scalar with escapes, or anything unexpected, maps to
 * the whole scalar.
 */
export function scalarValueMapper(text: string, node: Scalar): (start: number, end: number) => Span {
  const range = node.range;
  if (!range) return () => [0, 0];
  const whole: Span = [range[0], range[1]];
  const offsets = valueOffsets(text, node, range[0], range[1]);
  if (offsets === undefined) return () => whole;
  return (start, end) => {
    const length = offsets.length;
    const s = clamp(start, 0, length);
    const e = clamp(end, s, length);
    const from = s < length ? (offsets[s] ?? whole[0]) : whole[1];
    const to = e > s ? (offsets[e - 1] ?? whole[1] - 1) + 1 : from;
    return [from, to];
  };
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

const WHITESPACE = /\s/;

function valueOffsets(text: string, node: Scalar, start: number, end: number): number[] | undefined {
  const value = typeof node.value === "string" ? node.value : String(node.value);
  if (node.type === Scalar.QUOTE_DOUBLE && text.slice(start, end).includes("\\")) return undefined;
  const from = contentStart(text, node, start);
  if (from === undefined) return undefined;
  const offsets: number[] = new Array(value.length);
  let j = from;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (WHITESPACE.test(c)) {
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
