/**
 * The instance keys written under a file's `templates:`, whatever their values: they share the
 * address namespace with project keys (duplicates are reported across files, as for projects), and
 * expansion (template-expand.ts) starts from them. Pure.
 */
import { type Document, isAlias, isMap, isScalar, type Node } from "yaml";
import { findPath, resolveAlias, type Span } from "./yaml-path.js";

/** An instance key as written, whatever its value (for the address namespace). */
export interface InstanceDeclaration {
  readonly template: string;
  readonly address: string;
  readonly span: Span;
  readonly node: Node | undefined;
  readonly templateSpan: Span;
  readonly templateNode: Node | undefined;
}

function resolve(doc: Document, node: unknown): Node | undefined {
  const value = isAlias(node) ? resolveAlias(doc, node) : node;
  return isMap(value) || isScalar(value) ? value : undefined;
}

/** Every instance key written under `templates:` (first of a repeated key only), in file order. */
export function instanceDeclarations(doc: Document): InstanceDeclaration[] {
  const hit = findPath(doc, doc.contents, ["templates"]);
  const templates = hit.complete ? hit.node : undefined;
  if (!isMap(templates)) return [];
  const out: InstanceDeclaration[] = [];
  for (const pair of templates.items) {
    if (!isScalar(pair.key) || !pair.key.range) continue;
    const templateNode = resolve(doc, pair.value);
    const instances = templateNode && findPath(doc, templateNode, ["instances"]);
    if (!instances?.complete || !isMap(instances.node)) continue;
    const seen = new Set<string>();
    for (const item of instances.node.items) {
      if (!isScalar(item.key) || !item.key.range) continue;
      const address = String(item.key.value);
      if (seen.has(address)) continue;
      seen.add(address);
      out.push({
        template: String(pair.key.value),
        address,
        span: [item.key.range[0], item.key.range[1]],
        node: resolve(doc, item.value),
        templateSpan: [pair.key.range[0], pair.key.range[1]],
        templateNode,
      });
    }
  }
  return out;
}
