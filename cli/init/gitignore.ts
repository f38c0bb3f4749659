/**
 * `init` in a repository that already has a `.gitignore`: the patterns campaignctl needs that the
 * file lacks are appended under one comment, and nothing of the user's is changed or reordered.
 * A pattern counts as present when the file has it written the same way, with or without a leading
 * `/` or a trailing `/` (`.campaignctl`, `/.campaignctl/`). Pure.
 */

/** What to write for an existing `.gitignore`: the merged text, or undefined when nothing is missing. */
export interface GitignoreMerge {
  readonly text: string;
  /** The patterns appended, in the order of `ours`. */
  readonly added: readonly string[];
}

export function mergeGitignore(existing: string, ours: string): GitignoreMerge | undefined {
  const present = new Set(patterns(existing).map(normalized));
  const added = patterns(ours).filter((p) => !present.has(normalized(p)));
  if (added.length === 0) return undefined;
  const eol = existing.includes("\r\n") ? "\r\n" : "\n";
  const separator = existing === "" || existing.endsWith("\n") ? "" : eol;
  const block = [
    "# campaignctl (added by campaignctl init): its cache, journals, saved plans and reports",
    ...added,
  ];
  const blank = existing.trim() === "" ? "" : eol;
  return { text: `${existing}${separator}${blank}${block.join(eol)}${eol}`, added };
}

/** The patterns of a `.gitignore` text: its lines without comments, blank lines and trailing blanks. */
function patterns(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

function normalized(pattern: string): string {
  return pattern.replace(/^\//, "").replace(/\/$/, "");
}
