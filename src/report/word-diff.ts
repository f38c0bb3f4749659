/**
 * Word-level diff of two texts (live message vs the file's), for the terminal: removed words as
 * `[-old-]` and added ones as `{+new+}` (git's `--word-diff=plain` markers) without colour, red and
 * green with colour. Pure.
 */
import { type Change, diffWords, diffWordsWithSpace } from "diff";
import type { Style } from "./style.js";

/**
 * The changes from `before` to `after`. `diffWords` ignores changes of whitespace alone; when it
 * finds none although the texts differ, the whitespace-aware diff shows what changed instead.
 */
export function wordChanges(before: string, after: string): Change[] {
  const changes = diffWords(before, after);
  if (before !== after && !changes.some((c) => c.added || c.removed)) {
    return diffWordsWithSpace(before, after);
  }
  return changes;
}

/** Renders the word diff of `before` -> `after` as one string (it keeps the texts' own line breaks). */
export function renderWordDiff(before: string, after: string, style: Style, color: boolean): string {
  return wordChanges(before, after)
    .map((c) => {
      if (c.removed) return color ? style.red(c.value) : `[-${c.value}-]`;
      if (c.added) return color ? style.green(c.value) : `{+${c.value}+}`;
      return c.value;
    })
    .join("");
}
