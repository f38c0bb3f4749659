/**
 * One walk over every node of a parsed campaign file (issue 36: validate does the work the YAML
 * parse does not, once): its structural problems (duplicate keys with both places, aliases to
 * anchors that do not exist, merge keys, values of a tag's own class) and, on the way, the file's data exactly as the `yaml` library's
 * `doc.toJS()` builds it. The data is left to `toJS` (absent here) for what this walk does not
 * build the library's way: aliases, a merge key (`<<`), a key that is not a plain scalar, a node of
 * a class other than a plain map, sequence or scalar (a tag's own class), nesting deeper than
 * MAX_NESTING (so `tooDeep` measures those files, as before). Pure.
 */
import {
  type Alias,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  type Scalar,
  YAMLMap,
  YAMLSeq,
} from "yaml";
import type { Diagnostic, RelatedInformation } from "../diagnostics/diagnostic.js";
import { rangeAt, type SourceText } from "./source-range.js";
import { MAX_NESTING } from "./yaml-depth.js";
import { resolveAlias } from "./yaml-path.js";

/** What the walk found. */
export interface DocumentWalk {
  /** Duplicate keys and aliases to anchors not defined before them, in document order. */
  readonly problems: Diagnostic[];
  /**
   * The document's data, deep-equal to `doc.toJS()` (same keys, same order, own properties the
   * same way), when the walk could build it; absent: build it with `toJS`. Present only when no
   * node nests deeper than MAX_NESTING.
   */
  readonly data?: { readonly value: unknown };
  /**
   * Every map of the document with a repeated key (as `campaign.duplicate-key` reads keys: `String`
   * of a located scalar's value), in document order; usually none. A map not listed has no key
   * twice, so its readers need no index of their own to skip repeats (assemble.ts's declarations).
   */
  readonly mapsWithRepeatedKeys: readonly YAMLMap<unknown, unknown>[];
}

/** A key as `toJS` names it on a plain object, or undefined when the walk leaves the map to `toJS`. */
function dataKey(key: Scalar): string | undefined {
  const value = key.value;
  if (value === null) return "";
  // A merge key is read by toJS in the YAML 1.1 schema (and a symbol is one); a date or binary key
  // is stringified by the library's own rules.
  if (typeof value === "object" || typeof value === "symbol" || value === "<<") return undefined;
  if ((key as { addToJSMap?: unknown }).addToJSMap !== undefined) return undefined;
  return String(value);
}

/**
 * Sets `key` as the library's `addPairToJSMap` does on a plain object: it defines the property when
 * `key in target`, else assigns it. The two differ only for `__proto__` (an accessor of
 * Object.prototype, the only one): for an own key or another inherited name (`constructor`) an
 * assignment makes the same own, writable, enumerable, configurable property at the same place.
 */
function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** Maps of at most this many keys are checked for repeated keys by comparing, not by an index. */
const SMALL_MAP = 12;

/**
 * The names of a small map's keys, reused from map to map (a project's keys): `names[i]` is the key
 * of `items[i]` as duplicate keys are read (a located scalar, `String` of its value), else
 * undefined. Each key is named once, not once per earlier key compared.
 */
const smallNames: (string | undefined)[] = [];

/** The first key before `items[end]` named `name` (`smallNames` holds the map's names). */
function firstNamed(items: readonly unknown[], end: number, name: string): Scalar | undefined {
  for (let j = 0; j < end; j++)
    if (smallNames[j] === name) return (items[j] as Pair<unknown, unknown>).key as Scalar;
  return undefined;
}

/**
 * Each key of `node` repeated in it, against its first (`firstByKey`: an index to reuse, emptied
 * here); true when there was one.
 */
function repeatedKeys(
  node: YAMLMap<unknown, unknown>,
  source: SourceText,
  firstByKey: Map<string, Scalar>,
  problems: Diagnostic[],
): boolean {
  const items = node.items;
  if (items.length < 2) return false;
  let repeated = false;
  // A small map (a project's keys) is searched, not indexed: fewer strings hashed.
  const small = items.length <= SMALL_MAP;
  if (!small) firstByKey.clear();
  for (let i = 0; i < items.length; i++) {
    const pairKey = (items[i] as Pair<unknown, unknown>).key;
    const key = isScalar(pairKey) ? pairKey : undefined;
    const range = key?.range;
    if (key === undefined || range === undefined || range === null) {
      if (small) smallNames[i] = undefined;
      continue;
    }
    const name = String(key.value);
    if (small) smallNames[i] = name;
    const earlier = small ? firstNamed(items, i, name) : firstByKey.get(name);
    if (earlier === undefined) {
      if (!small) firstByKey.set(name, key);
      continue;
    }
    repeated = true;
    const first = earlier.range ?? range;
    const related: RelatedInformation[] = [
      { message: `first \`${name}\` is here`, range: rangeAt(source, first[0], first[1]) },
    ];
    problems.push({
      severity: "error",
      code: "campaign.duplicate-key",
      message: `key \`${name}\` appears twice in the same mapping`,
      range: rangeAt(source, range[0], range[1]),
      hint: "remove one of them: YAML keeps only the last, silently",
      related,
    });
  }
  return repeated;
}

/**
 * A map or a list written as a mapping key (`? [a, b]`, `{ a: 1 }: x`): every key a campaign file
 * has is a name, so this is a YAML mistake, reported once at the key (before, the schema's address
 * and required-key checks reported it at the enclosing map's line, twice).
 */
function collectionKey(source: SourceText, key: unknown): Diagnostic {
  return errorAt(
    source,
    key as Node,
    "campaign.yaml-key",
    `this mapping key is a ${isSeq(key) ? "list" : "map"}: keys are names`,
    "write the key as a plain name (quote it if it holds `[`, `{`, `:` or `#`)",
  );
}

/** An error at `node`'s place in the file (its start when it has none). */
function errorAt(
  source: SourceText,
  node: { readonly range?: readonly number[] | null | undefined },
  code: "campaign.yaml-key" | "campaign.yaml-merge-key" | "campaign.yaml-tag",
  message: string,
  hint: string,
): Diagnostic {
  const [start = 0, end = start] = node.range ?? [];
  return { severity: "error", code, message, range: rangeAt(source, start, end), hint };
}

/**
 * A merge key: `<<` of a `%YAML 1.1` file, or one tagged `!!merge` (any key so tagged is one). The
 * `yaml` library merges its map into the data, but the projects, templates and instances are
 * declared by the keys written (assemble.ts, template-declarations.ts): what a merge key brings in
 * under `projects:` or `instances:` would be in no plan, in silence (a project's `state: paused`
 * never applied). So it is refused wherever it is, and the file is not read.
 */
function mergeKey(source: SourceText, key: Scalar): Diagnostic {
  return errorAt(
    source,
    key,
    "campaign.yaml-merge-key",
    "this is a YAML merge key (`<<`): merges are not supported",
    "write the keys out where they belong; for values many projects share, use the file's `defaults:` (or a template)",
  );
}

/**
 * A node the YAML library reads as something other than a plain map, list, string, number, boolean
 * or null: a tag's own class (`!!omap`, `!!set`, `!!pairs`, `!!binary`, `!!timestamp`, a `%YAML 1.1`
 * date). The schema misreads such data (an ordered map has no properties: `projects: !!omap [...]`
 * or `defaults: !!omap [...]` would read as empty, in silence), so it is refused, and the file is
 * not read.
 */
function notPlainData(source: SourceText, node: Node, value: unknown): Diagnostic {
  const tag = node.tag?.replace("tag:yaml.org,2002:", "!!");
  const what =
    tag !== undefined
      ? `\`${tag}\``
      : value instanceof Date
        ? "a date (YAML 1.1 reads an unquoted date as one)"
        : "a YAML type of its own";
  return errorAt(
    source,
    node,
    "campaign.yaml-tag",
    `this value is ${what}: the file may hold only plain maps, lists, strings, numbers and booleans`,
    'remove the tag and write a plain map or list; quote a date-time (`at: "2026-11-03T10:00:00-06:00"`)',
  );
}

/**
 * An alias written as a mapping key (`*k : ...`): the key is the anchored name, but no check of
 * repeated keys sees it (it is no scalar), so `&k gotv:` then `*k :` is a key written twice whose
 * second value is the data, in silence, while every finding points at the first. Refused like a
 * map or a list as a key.
 */
function aliasKey(source: SourceText, key: Alias): Diagnostic {
  return errorAt(
    source,
    key,
    "campaign.yaml-key",
    `this mapping key is an alias (*${key.source}): keys are names, written out`,
    "write the key as a plain name; an alias as a key can repeat a key unseen, and YAML keeps only the last",
  );
}

/** Walks `doc` once: see DocumentWalk. */
export function walkDocument(source: SourceText, doc: Document.Parsed): DocumentWalk {
  const problems: Diagnostic[] = [];
  // One index, emptied per large map: a map's keys are all read before its values are walked. A
  // walk of our own (not yaml's `visit`, which calls back for every scalar and pair): this runs
  // over every node of every file.
  const firstByKey = new Map<string, Scalar>();
  const mapsWithRepeatedKeys: YAMLMap<unknown, unknown>[] = [];
  let buildable = true;
  // `level`: how deep `node` would nest if it is a map or a sequence (the top is 1, as tooDeep counts).
  const scalar = (node: Scalar): unknown => {
    const value = node.value;
    if ((typeof value === "object" && value !== null) || typeof value === "symbol")
      problems.push(notPlainData(source, node, value));
    return value;
  };
  const walk = (node: unknown, level: number): unknown => {
    if (isScalar(node)) return scalar(node);
    if (isMap(node)) {
      if (level > MAX_NESTING) buildable = false;
      if (node.constructor !== YAMLMap) {
        buildable = false;
        problems.push(notPlainData(source, node, undefined));
      }
      if (repeatedKeys(node, source, firstByKey, problems)) mapsWithRepeatedKeys.push(node);
      const data: Record<string, unknown> = {};
      for (const pair of node.items) {
        if (!isPair(pair)) {
          buildable = false;
          continue;
        }
        const { key, value } = pair;
        let name: string | undefined;
        if (key === null) name = "";
        else if (isScalar(key)) {
          name = dataKey(key);
          if (typeof key.value === "symbol") problems.push(mergeKey(source, key));
        } else {
          walk(key, level + 1);
          if (isMap(key) || isSeq(key)) problems.push(collectionKey(source, key));
          else if (isAlias(key)) problems.push(aliasKey(source, key));
        }
        if (name === undefined) buildable = false;
        const child = isScalar(value) ? scalar(value) : walk(value, level + 1);
        if (buildable && name !== undefined) setKey(data, name, child);
      }
      return data;
    }
    if (isSeq(node)) {
      if (level > MAX_NESTING) buildable = false;
      if (node.constructor !== YAMLSeq) {
        buildable = false;
        problems.push(notPlainData(source, node, undefined));
      }
      const data: unknown[] = [];
      for (const item of node.items) {
        if (isPair(item)) buildable = false;
        data.push(isScalar(item) ? scalar(item) : walk(item, level + 1));
      }
      return data;
    }
    if (isAlias(node)) {
      buildable = false;
      if (resolveAlias(doc, node) !== undefined) return undefined;
      const range = node.range ?? [0, 0];
      problems.push({
        severity: "error",
        code: "campaign.yaml-alias",
        message: `alias *${node.source} refers to an anchor &${node.source} that is not defined before it`,
        range: rangeAt(source, range[0], range[1]),
      });
      return undefined;
    }
    // An empty value; anything else is no node of a parsed document.
    if (node !== null && node !== undefined) buildable = false;
    return null;
  };
  const value = walk(doc.contents as Node | null, 1);
  return buildable ? { problems, data: { value }, mapsWithRepeatedKeys } : { problems, mapsWithRepeatedKeys };
}
