/**
 * How deeply a YAML document nests lists and maps, measured without recursion (so a file of 100,000
 * nested brackets is measured, not a stack overflow). A campaign file needs a handful of levels;
 * past {@link MAX_NESTING} the file is refused with a message that says what it has too much of,
 * before anything walks it recursively. Pure.
 */
import { isMap, isPair, isSeq, type Node } from "yaml";

/** The deepest nesting of lists and maps read; a campaign file needs about six. */
export const MAX_NESTING = 64;

/** The first node found deeper than `limit` levels, with its depth, or undefined when none is. */
export function tooDeep(
  root: unknown,
  limit = MAX_NESTING,
): { readonly node: Node; readonly depth: number } | undefined {
  const stack: { readonly node: unknown; readonly depth: number }[] = [{ node: root, depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { node, depth } = next;
    if (!isMap(node) && !isSeq(node)) continue;
    const level = depth + 1;
    if (level > limit) return { node, depth: level };
    for (const item of node.items) {
      if (isPair(item)) {
        stack.push({ node: item.key, depth: level });
        stack.push({ node: item.value, depth: level });
      } else stack.push({ node: item, depth: level });
    }
  }
  return undefined;
}
