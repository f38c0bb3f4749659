/**
 * A campaign file's text cut into its projects by lines, for the language server's incremental
 * check (incremental-check.ts): the text before the first project (`head`: the top-level keys and
 * the `projects:` line), one chunk per `projects:` entry (its key line and every line under it),
 * and the text after the last (`tail`: later top-level keys). Pure.
 *
 * The cut is made only where it is certain to follow the YAML structure; anything else gives
 * undefined, and the caller checks the file whole: tabs, carriage returns, anchors, aliases, tags,
 * directives, document markers, explicit (`? `) keys, a `projects:` that is not a block map of
 * plain keys at two spaces, a key written twice, and the top-level keys whose findings are shared
 * by the projects (`templates`, whose instances are projects, and `capacity`, judged at the first
 * project).
 */

/** One `projects:` entry: its key and its lines (ending with a line break), at `offset`/`line`. */
export interface ProjectChunk {
  readonly address: string;
  readonly text: string;
  /** Offset of the chunk's first character in the file. */
  readonly offset: number;
  /** 0-based line of the chunk's first line in the file. */
  readonly line: number;
  /** Number of lines in `text` (its line breaks, and 1 for a last line without one). */
  readonly lines: number;
}

/** A file cut into head, project chunks and tail; head + chunks + tail is the file's text. */
export interface ProjectSplit {
  readonly head: string;
  readonly chunks: readonly ProjectChunk[];
  readonly tail: string;
  /** Line breaks in `head`. */
  readonly headLines: number;
  /** Offset and 0-based line of `tail` in the file. */
  readonly tailOffset: number;
  readonly tailLine: number;
}

/** Anchors, aliases and tags where a value (or a flow item) starts; conservative: `&`/`*`/`!` after a space. */
const NODE_PROPERTY = /(?:^|[\s[{,])[&*!][^\s,[\]{}]/;
const TOP_KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ ](.*))?$/;
const ENTRY_KEY = /^ {2}([A-Za-z0-9][A-Za-z0-9_./-]*):(?:[ ].*)?$/;
const SHARED_TOP_KEYS: ReadonlySet<string> = new Set(["templates", "capacity"]);

function isBlankOrComment(line: string): boolean {
  const trimmed = line.trimStart();
  return trimmed === "" || trimmed.startsWith("#");
}

/** The file cut into its projects, or undefined when the cut would not be certain. */
export function splitProjects(text: string): ProjectSplit | undefined {
  if (text.includes("\t") || text.includes("\r")) return undefined;
  const lines = text.split("\n");
  // The empty string after a final line break; without one, the last line counts as ending in one.
  if (text.endsWith("\n")) lines.pop();
  let projectsLine = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (NODE_PROPERTY.test(line) || /^\s*\?(?:\s|$)/.test(line)) return undefined;
    if (line === "" || line.startsWith(" ") || line.startsWith("#")) continue;
    if (line.startsWith("%") || line.startsWith("---") || line.startsWith("...")) return undefined;
    const top = TOP_KEY.exec(line);
    if (top === null) return undefined;
    const key = top[1] as string;
    if (SHARED_TOP_KEYS.has(key)) return undefined;
    if (key === "projects") {
      const rest = (top[2] ?? "").trim();
      if (projectsLine >= 0 || (rest !== "" && !rest.startsWith("#"))) return undefined;
      projectsLine = i;
    }
  }
  if (projectsLine < 0) return undefined;
  const chunks: ProjectChunk[] = [];
  const seen = new Set<string>();
  let offset = 0;
  for (let i = 0; i <= projectsLine; i++) offset += (lines[i] as string).length + 1;
  const headEnd = offset;
  let i = projectsLine + 1;
  let current: { address: string; offset: number; line: number; lines: number } | undefined;
  const close = (): void => {
    if (current === undefined) return;
    chunks.push({ ...current, text: text.slice(current.offset, Math.min(offset, text.length)) });
  };
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line !== "" && !line.startsWith(" ") && !line.startsWith("#")) break; // the next top-level key
    const entry = ENTRY_KEY.exec(line);
    if (entry !== null) {
      const address = entry[1] as string;
      if (seen.has(address)) return undefined;
      seen.add(address);
      close();
      current = { address, offset, line: i, lines: 1 };
    } else if (current === undefined) {
      return undefined; // a comment or blank line before the first entry: keep the cut simple
    } else {
      // Under an entry: blank, a comment, or indented deeper than the entry's key.
      if (!isBlankOrComment(line) && !line.startsWith("   ")) return undefined;
      current.lines += 1;
    }
    offset += line.length + 1;
  }
  close();
  if (chunks.length === 0) return undefined;
  return {
    head: text.slice(0, headEnd),
    chunks,
    tail: text.slice(offset),
    headLines: projectsLine + 1,
    tailOffset: Math.min(offset, text.length),
    tailLine: i,
  };
}
