/**
 * Where each value of a project expanded from a template instance was written: in the instance when
 * it sets the key, else in the template, else in the file's `defaults`. The message is the variant
 * the instance's language names; a schedule's `at` is the `local` time it was converted from, and
 * its `timezone` the instance's (or the template's) `timezone` when the schedule block has none. Pure.
 */
import { type Document, isScalar, type Node } from "yaml";
import type { SourceRange } from "../diagnostics/diagnostic.js";
import { scalarValueMapper } from "./locate-in-message.js";
import type { SpecPath } from "./model.js";
import { rangeAt, type SourceText } from "./source-range.js";
import { findPath, type Span } from "./yaml-path.js";

/** The nodes and data an expanded project's values come from. */
export interface TemplateSource {
  readonly source: SourceText;
  readonly doc: Document;
  readonly instanceNode: Node | undefined;
  readonly templateNode: Node | undefined;
  readonly defaultsNode: Node | undefined;
  /** Which keys each layer sets (as written). */
  readonly instanceKeys: ReadonlySet<string>;
  readonly templateKeys: ReadonlySet<string>;
  readonly defaultsKeys: ReadonlySet<string>;
  readonly language: string;
  /** Where the instance's key is written: the answer when nothing closer is. */
  readonly keyRange: SourceRange;
}

export interface TemplateLocators {
  readonly locate: (path: SpecPath) => SourceRange;
  readonly locateInMessage: (start: number, end: number) => SourceRange;
  readonly locateInValue: (path: SpecPath, start: number, end: number) => SourceRange;
}

export function templateLocators(where: TemplateSource): TemplateLocators {
  const { source, doc, keyRange } = where;
  const at = (base: Node | undefined, path: SpecPath): SourceRange => {
    if (base === undefined) return keyRange;
    const hit = findPath(doc, base, path);
    const span = hit.value ?? hit.key;
    return span ? rangeAt(source, span[0], span[1]) : keyRange;
  };
  const layerOf = (key: string): Node | undefined => {
    if (where.instanceKeys.has(key)) return where.instanceNode;
    if (where.templateKeys.has(key)) return where.templateNode;
    if (where.defaultsKeys.has(key)) return where.defaultsNode;
    return undefined;
  };
  const locate = (path: SpecPath): SourceRange => {
    const [top, next, ...rest] = path;
    if (top === undefined) return keyRange;
    if (top === "message") return at(where.templateNode, ["message", where.language, ...path.slice(1)]);
    const base = layerOf(String(top));
    if (top === "schedule" && base !== undefined && base !== where.defaultsNode) {
      if (next === "at") return at(base, ["schedule", "local", ...rest]);
      if (next === "timezone") {
        const zoneBase = where.instanceKeys.has("timezone")
          ? where.instanceNode
          : findPath(doc, base, ["schedule", "timezone"]).complete
            ? base
            : where.templateKeys.has("timezone")
              ? where.templateNode
              : base;
        return at(zoneBase, zoneBase === base ? ["schedule", "timezone"] : ["timezone"]);
      }
    }
    return at(base, path);
  };
  let mapMessage: ((start: number, end: number) => Span) | undefined;
  const locateInMessage = (start: number, end: number): SourceRange => {
    if (mapMessage === undefined) {
      const node =
        where.templateNode === undefined
          ? undefined
          : findPath(doc, where.templateNode, ["message", where.language]).node;
      if (!isScalar(node)) return locate(["message"]);
      mapMessage = scalarValueMapper(source.text, node);
    }
    const [from, to] = mapMessage(start, end);
    return rangeAt(source, from, to);
  };
  const valueMappers = new Map<string, ((start: number, end: number) => Span) | null>();
  const locateInValue = (path: SpecPath, start: number, end: number): SourceRange => {
    const key = JSON.stringify(path);
    let mapper = valueMappers.get(key);
    if (mapper === undefined) {
      const [top, ...rest] = path;
      // The message is the template's variant of the instance's language; any other value is in
      // the layer that sets its key.
      const base =
        top === "message" ? where.templateNode : top === undefined ? undefined : layerOf(String(top));
      const inBase = top === "message" ? ["message", where.language, ...rest] : path;
      const node = base === undefined ? undefined : findPath(doc, base, inBase).node;
      mapper = isScalar(node) ? scalarValueMapper(source.text, node) : null;
      valueMappers.set(key, mapper);
    }
    if (mapper === null) return locate(path);
    const [from, to] = mapper(start, end);
    return rangeAt(source, from, to);
  };
  return { locate, locateInMessage, locateInValue };
}
