/**
 * A campaign file's text cut into its projects by lines, for the language server's incremental
 * check (incremental-check.ts): the text before the first entry (`head`), one chunk per entry (its
 * key line and every line under it), and the text after the last (`tail`). The entries are the
 * `projects:` entries (keys at two spaces), or, in a file of templates, the instances of its one
 * template with instances (keys at six spaces under `    instances:`): each instance is a project.
 * Pure.
 *
 * The cut is made only where it is certain to follow the YAML structure; anything else gives
 * undefined, and the caller checks the file whole: tabs, carriage returns, anchors, aliases, tags,
 * directives, document markers, explicit (`? `) keys, an entries block that is not a block map of
 * plain keys at its indentation, a key written twice, `projects:` beside `templates:` (an instance
 * and a project may declare one address), more than one template with instances, and `capacity`
 * (judged at the first project).
 */

/** One entry: its key and its lines (ending with a line break), at `offset`/`line`. */
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

/** A file cut into head, entry chunks and tail; head + chunks + tail is the file's text. */
export interface ProjectSplit {
  /** What the chunks are: `projects:` entries, or a template's instances. */
  readonly kind: "projects" | "instances";
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
const NODE_PROPERTY = /(?:^|[\s[{,])[&*!][^\s,[\]{}]/m;
/** An explicit key (`? `), a directive or a document marker, anywhere. */
const UNCERTAIN_LINE = /^(?:[ ]*\?(?:[ \n]|$)|%|---|\.\.\.)/m;
const TOP_KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ ](.*))?$/;
const ENTRY_KEY = /^([A-Za-z0-9][A-Za-z0-9_./-]*):(?:[ ].*)?$/;
const INSTANCES_KEY = /^ {4}instances:[ ]*(?:#.*)?$/;
const TEMPLATE_KEY = /^ {2}[A-Za-z0-9][A-Za-z0-9_./-]*:[ ]*(?:#.*)?$/;

/** The file's lines with their offsets (the last line without a break counts as one). */
interface Lines {
  readonly text: string;
  /** Offset of each line's first character; one more entry: the text's length (+1 without a final break). */
  readonly starts: readonly number[];
}

function linesOf(text: string): Lines {
  const starts = [0];
  let at = text.indexOf("\n");
  while (at >= 0) {
    starts.push(at + 1);
    at = text.indexOf("\n", at + 1);
  }
  // The empty string after a final line break is no line; without one, the last line ends at +1.
  if (text.endsWith("\n")) starts.pop();
  starts.push(text.length + (text.endsWith("\n") ? 0 : 1));
  return { text, starts };
}

function lineAt(lines: Lines, i: number): string {
  return lines.text.slice(lines.starts[i] as number, (lines.starts[i + 1] as number) - 1);
}

/** Leading spaces of line `i`, or -1 for a blank or comment-only line. */
function indentOf(lines: Lines, i: number): number {
  const text = lines.text;
  const start = lines.starts[i] as number;
  const end = (lines.starts[i + 1] as number) - 1;
  let at = start;
  while (at < end && text.charCodeAt(at) === 32) at++;
  return at === end || text.charCodeAt(at) === 35 ? -1 : at - start;
}

/** The file cut into its entries, or undefined when the cut would not be certain. */
export function splitProjects(text: string): ProjectSplit | undefined {
  if (text.includes("\t") || text.includes("\r")) return undefined;
  if (NODE_PROPERTY.test(text) || UNCERTAIN_LINE.test(text)) return undefined;
  const lines = linesOf(text);
  const count = lines.starts.length - 1;
  let projectsLine = -1;
  let templatesLine = -1;
  const tops: number[] = [];
  for (let i = 0; i < count; i++) {
    if (indentOf(lines, i) !== 0) continue;
    const top = TOP_KEY.exec(lineAt(lines, i));
    if (top === null) return undefined;
    tops.push(i);
    const key = top[1] as string;
    if (key === "capacity") return undefined;
    if (key !== "projects" && key !== "templates") continue;
    const rest = (top[2] ?? "").trim();
    if (rest !== "" && !rest.startsWith("#")) return undefined;
    if (key === "projects") {
      if (projectsLine >= 0) return undefined;
      projectsLine = i;
    } else {
      if (templatesLine >= 0) return undefined;
      templatesLine = i;
    }
  }
  if (projectsLine >= 0 && templatesLine >= 0) return undefined;
  if (projectsLine >= 0) return cut(lines, "projects", projectsLine, 0, 2);
  if (templatesLine < 0) return undefined;
  const end = tops.find((t) => t > templatesLine) ?? count;
  let instancesLine = -1;
  for (let i = templatesLine + 1; i < end; i++) {
    if (indentOf(lines, i) !== 4 || !INSTANCES_KEY.test(lineAt(lines, i))) continue;
    // One template with instances, its key the nearest line above at two spaces.
    if (instancesLine >= 0) return undefined;
    instancesLine = i;
  }
  if (instancesLine < 0) return undefined;
  let owner = instancesLine - 1;
  while (owner > templatesLine && indentOf(lines, owner) !== 2) owner--;
  if (owner <= templatesLine || !TEMPLATE_KEY.test(lineAt(lines, owner))) return undefined;
  return cut(lines, "instances", instancesLine, 4, 6);
}

/**
 * The entries at `indent` under the key on line `keyLine` (at `parent`): each entry's key line and
 * the lines under it, up to the first line at `parent` or less. Undefined for anything else.
 */
function cut(
  lines: Lines,
  kind: ProjectSplit["kind"],
  keyLine: number,
  parent: number,
  indent: number,
): ProjectSplit | undefined {
  const text = lines.text;
  const count = lines.starts.length - 1;
  const chunks: ProjectChunk[] = [];
  const seen = new Set<string>();
  let current: { address: string; line: number } | undefined;
  const close = (endLine: number): void => {
    if (current === undefined) return;
    const offset = lines.starts[current.line] as number;
    const end = Math.min(lines.starts[endLine] as number, text.length);
    chunks.push({ ...current, offset, text: text.slice(offset, end), lines: endLine - current.line });
  };
  let i = keyLine + 1;
  for (; i < count; i++) {
    const at = indentOf(lines, i);
    if (at === -1) {
      // A blank or comment line before the first entry: keep the cut simple.
      if (current === undefined) return undefined;
      continue;
    }
    if (at <= parent) break;
    if (at < indent) return undefined;
    if (at > indent) {
      if (current === undefined) return undefined;
      continue;
    }
    const entry = ENTRY_KEY.exec(lineAt(lines, i).slice(indent));
    if (entry === null) return undefined;
    const address = entry[1] as string;
    if (seen.has(address)) return undefined;
    seen.add(address);
    close(i);
    current = { address, line: i };
  }
  close(i);
  if (chunks.length === 0) return undefined;
  const headEnd = lines.starts[keyLine + 1] as number;
  const tailOffset = Math.min(lines.starts[i] as number, text.length);
  return {
    kind,
    head: text.slice(0, headEnd),
    chunks,
    tail: text.slice(tailOffset),
    headLines: keyLine + 1,
    tailOffset,
    tailLine: i,
  };
}

/**
 * `splitProjects(text)` for a text made from `before` (cut as `split`) by an edit, found from the
 * edit's place: when the edit lies inside one entry and leaves it one entry, only that entry is cut
 * again (the others are reused, moved); anything else cuts the text whole. Same result either way.
 */
export function splitAfterEdit(before: string, split: ProjectSplit, text: string): ProjectSplit | undefined {
  const grown = text.length - before.length;
  const { head, tail, chunks } = split;
  if (!text.startsWith(head) || !text.endsWith(tail)) return splitProjects(text);
  // The first entry from the front and the first from the back whose text is not where it was
  // (compared natively, entry by entry): the edit lies inside one entry when they are the same.
  // The entries before the one holding the first changed character, and after the one holding
  // the last, lie in the text the two versions share: the search starts from those two.
  const same = sharedEnds(before, text);
  let first = entryAt(chunks, same.prefix);
  while (
    first < chunks.length &&
    text.startsWith((chunks[first] as ProjectChunk).text, (chunks[first] as ProjectChunk).offset)
  )
    first++;
  let last = Math.max(first, entryAt(chunks, before.length - same.suffix - 1));
  while (
    last > first &&
    text.startsWith((chunks[last] as ProjectChunk).text, (chunks[last] as ProjectChunk).offset + grown)
  )
    last--;
  const chunk = chunks[first];
  if (chunk === undefined || last !== first) return splitProjects(text);
  const entry = text.slice(chunk.offset, chunk.offset + chunk.text.length + grown);
  // The entry still ends with its line break (or the text's end), so it still ends where the next begins.
  const end = chunk.text.endsWith("\n") ? "\n" : "";
  if (end === "\n" ? !entry.endsWith("\n") : entry.includes("\n", entry.length - 1))
    return splitProjects(text);
  const recut = recutEntry(split, first, entry);
  if (recut === undefined) return splitProjects(text);
  const lines = recut.lines - chunk.lines;
  const moved = chunks.map((c, i) =>
    i < first
      ? c
      : i === first
        ? recut
        : grown === 0 && lines === 0
          ? c
          : { ...c, offset: c.offset + grown, line: c.line + lines },
  );
  return { ...split, chunks: moved, tailOffset: split.tailOffset + grown, tailLine: split.tailLine + lines };
}

/**
 * How many characters the two texts share at their start, and then at their end (the two never
 * overlap): found by halving, each step a native compare of two slices.
 */
function sharedEnds(a: string, b: string): { readonly prefix: number; readonly suffix: number } {
  const most = Math.min(a.length, b.length);
  let lo = 0;
  let hi = most;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid;
    else hi = mid - 1;
  }
  const prefix = lo;
  lo = 0;
  hi = most - prefix;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (a.slice(a.length - mid, a.length - lo) === b.slice(b.length - mid, b.length - lo)) lo = mid;
    else hi = mid - 1;
  }
  return { prefix, suffix: lo };
}

/** The index of the last entry that starts at or before `offset` (0 when none does). */
function entryAt(chunks: readonly ProjectChunk[], offset: number): number {
  let lo = 0;
  let hi = chunks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((chunks[mid] as ProjectChunk).offset <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Entry `index` of `split` with its new text, cut as splitProjects would; undefined: cut whole. */
function recutEntry(split: ProjectSplit, index: number, entry: string): ProjectChunk | undefined {
  const old = split.chunks[index] as ProjectChunk;
  if (entry.includes("\t") || entry.includes("\r")) return undefined;
  if (NODE_PROPERTY.test(entry) || UNCERTAIN_LINE.test(entry)) return undefined;
  const indent = split.kind === "projects" ? 2 : 6;
  const lines = linesOf(entry);
  const count = lines.starts.length - 1;
  if (indentOf(lines, 0) !== indent) return undefined;
  const key = ENTRY_KEY.exec(lineAt(lines, 0).slice(indent));
  if (key === null) return undefined;
  const address = key[1] as string;
  if (address !== old.address && split.chunks.some((c) => c.address === address)) return undefined;
  // Every further line blank, a comment, or under the entry's key.
  for (let i = 1; i < count; i++) {
    const at = indentOf(lines, i);
    if (at !== -1 && at <= indent) return undefined;
  }
  return { address, text: entry, offset: old.offset, line: old.line, lines: count };
}
