/**
 * Renders YamlOut values to YAML text with the `yaml` library: one `key: value` pair at a given
 * indentation (for edits spliced into an existing file) or a whole new document. Pure.
 *
 * A message is written as a block scalar, folded for reading (`>-`) or literal (`|`) when it has
 * line breaks, with the chomping indicator that keeps its trailing newlines; when no block scalar
 * reads back byte for byte (control characters, CR, whitespace-only lines...), it is double-quoted
 * with escapes. Every rendered message is read back and compared before it is used.
 */
import { Document, isMap, type Node, Pair, parse, Scalar, stringify, YAMLMap, YAMLSeq } from "yaml";
import type { YamlOut } from "./yaml-out.js";

/** Line width the rendered text aims at (block scalars are folded to it). */
const LINE_WIDTH = 100;

type ScalarStyle = typeof Scalar.BLOCK_FOLDED | typeof Scalar.BLOCK_LITERAL | typeof Scalar.QUOTE_DOUBLE;

function messageStyles(text: string): ScalarStyle[] {
  const block = text.includes("\n") ? Scalar.BLOCK_LITERAL : Scalar.BLOCK_FOLDED;
  return [block, Scalar.BLOCK_LITERAL, Scalar.QUOTE_DOUBLE];
}

function toNode(out: YamlOut, style?: ScalarStyle): Node {
  switch (out.kind) {
    case "scalar": {
      const node = new Scalar(out.value);
      if (out.message === true && style !== undefined) node.type = style;
      if (out.comment !== undefined) node.comment = ` ${out.comment}`;
      return node;
    }
    case "seq": {
      const seq = new YAMLSeq();
      for (const item of out.items) seq.items.push(toNode(item));
      return seq;
    }
    case "map": {
      const map = new YAMLMap();
      for (const [key, value] of out.pairs) map.items.push(new Pair(new Scalar(key), toNode(value)));
      if (out.pairs.length === 0) map.flow = true;
      if (out.notes !== undefined && out.notes.length > 0) map.comment = notesComment(out.notes);
      return map;
    }
  }
}

/** Comment lines (`# ...`) from notes; an empty note is an empty comment line. */
function notesComment(notes: readonly string[]): string {
  return notes.map((n) => (n === "" ? "" : ` ${n}`)).join("\n");
}

function stringifyMap(map: YAMLMap, width: number): string {
  const doc = new Document();
  doc.contents = map;
  return doc.toString({ lineWidth: Math.max(40, width), minContentWidth: 20, indent: 2 });
}

/** Indents every line but the first by `indent` spaces (empty lines stay empty). */
function indentRest(text: string, indent: number): string {
  const pad = " ".repeat(indent);
  return text
    .split("\n")
    .map((line, i) => (i === 0 || line === "" ? line : pad + line))
    .join("\n");
}

/** Does rendering `out` under `key` read back as the same value? (messages only need checking) */
function messageReadsBack(rendered: string, key: string, text: string): boolean {
  try {
    const back = parse(rendered) as Record<string, unknown> | null;
    return back !== null && typeof back === "object" && back[key] === text;
  } catch {
    return false;
  }
}

/**
 * `key: value` as text whose first line starts at column `indent` (the caller writes that much
 * indentation before it) and whose later lines carry it; no trailing newline.
 */
export function renderPair(key: string, out: YamlOut, indent: number): string {
  const width = LINE_WIDTH - indent;
  if (out.kind === "scalar" && out.message === true && typeof out.value === "string") {
    const text = out.value;
    for (const style of messageStyles(text)) {
      const map = new YAMLMap();
      map.items.push(new Pair(new Scalar(key), toNode(out, style)));
      const rendered = stringifyMap(map, width);
      if (messageReadsBack(rendered, key, text)) return indentRest(rendered.replace(/\n$/, ""), indent);
    }
    throw new Error(`renderPair: no style reproduces the message of ${key}`);
  }
  // A map holding a message (a project) is rendered pair by pair, so that its message is checked.
  if (out.kind === "map" && holdsMessage(out)) {
    const lines = [`${keyText(key)}:`, ...out.pairs.map(([k, v]) => `  ${renderPair(k, v, 2)}`)];
    for (const note of out.notes ?? []) lines.push(note === "" ? "  #" : `  # ${note}`);
    return indentRest(lines.join("\n"), indent);
  }
  const map = new YAMLMap();
  map.items.push(new Pair(new Scalar(key), toNode(out)));
  return indentRest(stringifyMap(map, width).replace(/\n$/, ""), indent);
}

/**
 * A map key as YAML text that reads back as the same string: plain where it can be, quoted where a
 * plain key would read as another value (an address `null`, `1e3`, `0x1f` or `true`).
 */
export function keyText(key: string): string {
  return stringify(key, { lineWidth: 0 }).replace(/\n$/, "");
}

/** Does `out` hold a message scalar at any depth? */
function holdsMessage(out: YamlOut): boolean {
  switch (out.kind) {
    case "scalar":
      return out.message === true;
    case "seq":
      return out.items.some(holdsMessage);
    case "map":
      return out.pairs.some(([, v]) => holdsMessage(v));
  }
}

/** A plain scalar value as inline YAML (`Voters`, `"+15035550101"`, `true`). */
export function renderInline(value: string | number | boolean): string {
  const map = new YAMLMap();
  map.items.push(new Pair(new Scalar("k"), new Scalar(value)));
  const text = stringifyMap(map, 1000).replace(/\n$/, "");
  return text.slice("k: ".length);
}

/** Is `node` a block map (one that pairs can be spliced into)? */
export function isBlockMap(node: unknown): node is YAMLMap {
  return isMap(node) && node.flow !== true;
}

/**
 * A whole new file: `header` comment lines, then top-level pairs; pairs of the map under
 * `projects` are separated by a blank line.
 */
export function renderDocument(
  header: readonly string[],
  pairs: readonly (readonly [string, YamlOut])[],
): string {
  const parts: string[] = header.map((h) => (h === "" ? "#" : `# ${h}`));
  for (const [key, value] of pairs) {
    if (key === "projects" && value.kind === "map") {
      parts.push("");
      parts.push("projects:");
      value.pairs.forEach(([address, project], i) => {
        if (i > 0) parts.push("");
        parts.push(`  ${renderPair(address, project, 2)}`);
      });
      continue;
    }
    if (key === "defaults") parts.push("");
    parts.push(renderPair(key, value, 0));
  }
  return `${parts.join("\n")}\n`;
}
