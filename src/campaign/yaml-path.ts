/**
 * Finds where a value at a path (map keys and sequence indexes) is written in a YAML document,
 * following aliases. Pure; never throws.
 */
import { type Alias, type Document, isAlias, isMap, isScalar, isSeq, type Node, visit } from "yaml";

/** Offsets `[start, end)` in the file's text. */
export type Span = readonly [number, number];

/**
 * Invariant: `complete` is true only when every segment was found; `value`/`key` then belong to the
 * last segment, else to the deepest segment that was found (both absent when none was).
 */
export interface PathHit {
  readonly complete: boolean;
  readonly value?: Span;
  readonly key?: Span;
  /** The node at the path when `complete`. */
  readonly node?: Node;
}

function spanOf(node: Node | null | undefined): Span | undefined {
  const range = node?.range;
  return range ? [range[0], range[1]] : undefined;
}

/**
 * Each alias of a document with the node it stands for: the last node before it (in document order)
 * that carries its anchor, the rule of the `yaml` library's `Alias.resolve`. Built in one walk per
 * document and kept while the document lives: `Alias.resolve` walks the whole document on every
 * call, so a lookup per instance in a file of a thousand aliased instances grew with the square of
 * the instances. Our documents are parsed and read, never edited, so the index cannot go stale; an
 * alias the index does not know (a node added later) falls back to the library's own walk.
 */
const aliasTargets = new WeakMap<Document, Map<Alias, Node | undefined>>();

function aliasIndex(doc: Document): Map<Alias, Node | undefined> {
  let index = aliasTargets.get(doc);
  if (index !== undefined) return index;
  const built = new Map<Alias, Node | undefined>();
  const anchored = new Map<string, Node>();
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) built.set(node, anchored.get(node.source));
      else if ((isMap(node) || isSeq(node) || isScalar(node)) && node.anchor) anchored.set(node.anchor, node);
    },
  });
  index = built;
  aliasTargets.set(doc, index);
  return index;
}

/** The node `alias` stands for in `doc` (as `Alias.resolve`), undefined when no anchor precedes it. */
export function resolveAlias(doc: Document, alias: Alias): Node | undefined {
  const index = aliasIndex(doc);
  return (index.has(alias) ? index.get(alias) : alias.resolve(doc)) ?? undefined;
}

function resolved(doc: Document, node: unknown): Node | undefined {
  if (isAlias(node)) return resolveAlias(doc, node);
  return isMap(node) || isSeq(node) || isScalar(node) ? node : undefined;
}

/**
 * The last pair whose key is a scalar named `name` (YAML keeps the last of repeated keys), found
 * from the end: this runs for every located finding and every project's cross-file ranges.
 */
function lastPairNamed(
  items: readonly { readonly key: unknown; readonly value: unknown }[],
  name: string,
): { readonly key: unknown; readonly value: unknown } | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const pair = items[i] as { readonly key: unknown; readonly value: unknown };
    const key = pair.key;
    if (!isScalar(key)) continue;
    const value = key.value;
    if ((typeof value === "string" ? value : String(value)) === name) return pair;
  }
  return undefined;
}

/**
 * Walks `path` from `start` (a node of `doc`). Only the deepest segment found makes a PathHit (this
 * runs for every located finding and every project's cross-file ranges: no object per segment).
 */
export function findPath(doc: Document, start: unknown, path: readonly (string | number)[]): PathHit {
  let current = resolved(doc, start);
  // The deepest segment found: `depth` of them, the last through a map's `pair` or a sequence item.
  let depth = 0;
  let pair: { readonly key: unknown; readonly value: unknown } | undefined;
  for (const segment of path) {
    let next: Node | undefined;
    if (isMap(current)) {
      const named = lastPairNamed(current.items, String(segment));
      if (named === undefined) break;
      pair = named;
      next = resolved(doc, named.value);
    } else if (isSeq(current)) {
      const index = typeof segment === "number" ? segment : Number(segment);
      const item = Number.isInteger(index) ? current.items[index] : undefined;
      if (item === undefined) break;
      pair = undefined;
      next = resolved(doc, item);
    } else break;
    current = next;
    depth++;
  }
  const complete = depth === path.length;
  if (depth === 0) return { complete, value: spanOf(current), node: current };
  if (pair === undefined) return { complete, value: spanOf(current), node: current };
  const key = spanOf(pair.key as Node);
  return { complete, key, value: spanOf(current) ?? key, node: current };
}

/** Splits an ajv `instancePath` (a JSON Pointer) into segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}
