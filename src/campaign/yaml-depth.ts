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
  // Two parallel stacks of the lists and maps still to look into (scalars are never deep), not an
  // object per node: this runs over every node of every file.
  const nodes: unknown[] = [root];
  const depths: number[] = [0];
  for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
    const depth = depths.pop() as number;
    if (!isMap(node) && !isSeq(node)) continue;
    const level = depth + 1;
    if (level > limit) return { node, depth: level };
    for (const item of node.items) {
      if (isPair(item)) {
        if (isMap(item.key) || isSeq(item.key)) {
          nodes.push(item.key);
          depths.push(level);
        }
        if (isMap(item.value) || isSeq(item.value)) {
          nodes.push(item.value);
          depths.push(level);
        }
      } else if (isMap(item) || isSeq(item)) {
        nodes.push(item);
        depths.push(level);
      }
    }
  }
  return undefined;
}
