/**
 * Text edits of a YAML file that leave every byte outside the edited pairs as it was (comments,
 * blank lines, quoting, flow or block style, key order). Positions come from the `yaml` library's
 * node ranges. Pure.
 */
import type { Pair, YAMLMap } from "yaml";
import { isNode, isScalar } from "yaml";

/** Replace `text.slice(start, end)` by `text`. Invariant: `start <= end`. */
export interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Applies non-overlapping splices (any order); equal starts keep their given order. */
export function applySplices(text: string, splices: readonly Splice[]): string {
  const sorted = splices
    .map((s, i) => ({ s, i }))
    .sort((a, b) => b.s.start - a.s.start || b.s.end - a.s.end || b.i - a.i);
  let out = text;
  for (const { s } of sorted) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf("\n", pos - 1) + 1;
}

/** The start of the line after the one holding `pos - 1` (pos itself when it starts a line). */
function nextLineStart(text: string, pos: number): number {
  if (pos === 0 || text[pos - 1] === "\n") return pos;
  const nl = text.indexOf("\n", pos);
  return nl === -1 ? text.length : nl + 1;
}

type AnyPair = Pair<unknown, unknown>;

function keyStart(pair: AnyPair): number {
  const key = pair.key;
  if (!isNode(key) || key.range == null) throw new Error("splice: a key without a source range");
  return key.range[0];
}

/** Where the pair's value ends (before any trailing comment on its line). */
function valueEnd(pair: AnyPair): number {
  const value = pair.value;
  if (isNode(value) && value.range != null) return value.range[1];
  const key = pair.key;
  if (isNode(key) && key.range != null) return key.range[1];
  throw new Error("splice: a pair without a source range");
}

/** The column of a pair's key. */
export function indentOf(text: string, pair: AnyPair): number {
  const start = keyStart(pair);
  return start - lineStart(text, start);
}

/** The end of the pair's content with trailing line breaks left out. */
function contentEnd(text: string, pair: AnyPair): number {
  let end = valueEnd(pair);
  while (end > keyStart(pair) && text[end - 1] === "\n") end--;
  return end;
}

/** Replaces a whole `key: value` pair by `rendered` (from `renderPair` at the pair's indentation). */
export function replacePair(text: string, pair: AnyPair, rendered: string): Splice {
  return { start: keyStart(pair), end: contentEnd(text, pair), text: rendered };
}

/** Replaces an inline scalar value only (its key and trailing comment stay). */
export function replaceScalarValue(pair: AnyPair, inline: string): Splice | undefined {
  const value = pair.value;
  if (!isScalar(value) || value.range == null) return undefined;
  if (value.type === "BLOCK_FOLDED" || value.type === "BLOCK_LITERAL") return undefined;
  return { start: value.range[0], end: value.range[1], text: inline };
}

/** Removes a pair and its lines. */
export function deletePair(text: string, pair: AnyPair): Splice {
  return { start: lineStart(text, keyStart(pair)), end: nextLineStart(text, valueEnd(pair)), text: "" };
}

/**
 * Inserts rendered pairs (each from `renderPair` at `indent`) after `after`, or before the map's
 * first pair when `after` is undefined.
 */
export function insertPairs(
  text: string,
  map: YAMLMap,
  after: AnyPair | undefined,
  indent: number,
  rendered: readonly string[],
  blankLineBefore = false,
): Splice {
  const pad = " ".repeat(indent);
  const body = rendered.map((r) => `${blankLineBefore ? "\n" : ""}${pad}${r}\n`).join("");
  if (after === undefined) {
    const first = map.items[0];
    if (first === undefined) throw new Error("splice: insert into an empty map");
    const at = lineStart(text, keyStart(first));
    return { start: at, end: at, text: body };
  }
  const at = nextLineStart(text, valueEnd(after));
  const needsBreak = at === text.length && text.length > 0 && !text.endsWith("\n");
  return { start: at, end: at, text: `${needsBreak ? "\n" : ""}${body}` };
}
