/**
 * Joining the reasons an action cannot go ahead into one `Block`. Pure.
 */
import type { Block } from "./types.js";

/** One block saying every reason and every fix once, or `undefined` when there is none. */
export function combineBlocks(blocks: readonly Block[]): Block | undefined {
  if (blocks.length === 0) return undefined;
  const unique = <T extends string>(items: readonly T[]): T[] => [...new Set(items.filter((i) => i !== ""))];
  return {
    reason: unique(blocks.map((b) => b.reason)).join("; "),
    fix: unique(blocks.map((b) => b.fix)).join("; "),
    codes: unique(blocks.flatMap((b) => b.codes)),
  };
}
