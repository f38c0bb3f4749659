/**
 * What hover and completion read of a document from its last check instead of parsing it whole: a
 * 10,000-project file takes about a second to parse, one entry of it a millisecond. When the
 * server's last check was of this very text and cut it into its `projects:` entries with
 * certainty (project-chunks.ts), every project valid and no structural finding (the conditions of
 * the incremental check, incremental-check.ts), a hover inside an entry reads the small file of
 * the document's head, that entry and its tail (each project is built from the head and its own
 * entry: no anchors, no aliases, no templates), and the file's `organization`, `fields` and
 * `merge_defaults` are read from the head and the tail alone. Anything else reads the whole text,
 * as before. Same answers either way (test/lsp/kept-document.test.ts). Pure.
 */
import type { SourceRange } from "../../src/diagnostics/diagnostic.js";
import type { CheckMemory } from "./check-document.js";
import { type DocumentFacts, documentFacts } from "./document-facts.js";
import { HOVERED_KEYS, type HoverSources, type HoverText, hoverAt } from "./hover.js";
import { isStructural } from "./incremental-check.js";
import { type Delta, mover, ZERO } from "./move-findings.js";
import type { ProjectChunk, ProjectSplit } from "./project-chunks.js";

/** How a hover was answered: from one entry's small file(s), or from the whole text. */
export type HoverRead = "entry" | "whole";

/** A hover on the head or the tail (a value in `defaults`) tries this many entries' small files, then the whole text. */
const HEAD_TRIES = 16;

/**
 * The cut of `text` the last check of the document at `path` made, when hover and completion may
 * read it entry by entry: the check was of this text, of `projects:` entries, all of them valid
 * projects, with no finding that puts the file's structure in question. Undefined otherwise.
 */
export function keptCut(memory: CheckMemory, path: string, text: string): ProjectSplit | undefined {
  const own = memory.documents.get(path)?.own;
  const split = own?.split;
  if (own === undefined || split === undefined || own.text !== text || split.kind !== "projects")
    return undefined;
  const { check } = own;
  if (check.projects.length !== split.chunks.length || check.declarations.length !== split.chunks.length)
    return undefined;
  if (check.diagnostics.some((d) => isStructural(d.code))) return undefined;
  return split;
}

/** The file's organization, fields and merge defaults: from the head and tail of `cut` when given. */
export function factsOf(text: string, cut: ProjectSplit | undefined): DocumentFacts {
  return documentFacts(cut === undefined ? text : `${cut.head}${cut.tail}`);
}

/** The index of the entry holding `offset`, or -1 when it lies in the head or the tail. */
function entryHolding(cut: ProjectSplit, offset: number): number {
  let lo = 0;
  let hi = cut.chunks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const chunk = cut.chunks[mid] as ProjectChunk;
    if (offset < chunk.offset) hi = mid - 1;
    else if (offset >= chunk.offset + chunk.text.length) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** The hover on the small file of `cut`'s head, entry `chunk` and tail at the document's `offset`, in the document's places. */
function hoverInEntry(
  path: string,
  cut: ProjectSplit,
  chunk: ProjectChunk,
  offset: number,
  sources: HoverSources,
): HoverText | undefined {
  const head = cut.head.length;
  const end = head + chunk.text.length;
  // A document offset as the small file's: the entry's own are moved, the head's kept, the tail's moved.
  const inChunk: Delta = { offset: chunk.offset - head, line: chunk.line - cut.headLines };
  const inTail: Delta = { offset: cut.tailOffset - end, line: cut.tailLine - (cut.headLines + chunk.lines) };
  const local =
    offset < head
      ? offset
      : offset < chunk.offset + chunk.text.length
        ? offset - inChunk.offset
        : offset - inTail.offset;
  const found = hoverAt(path, `${cut.head}${chunk.text}${cut.tail}`, local, sources);
  if (found === undefined) return undefined;
  const move = mover(path, (start, stop) => {
    if (start < head) return stop <= head ? ZERO : undefined;
    if (start < end) return stop <= end ? inChunk : undefined;
    return inTail;
  });
  const range: SourceRange | undefined = move(found.range);
  return range === undefined ? undefined : { markdown: found.markdown, range };
}

/**
 * True when `offset` (in the head or the tail of `cut`) lies in the top-level `defaults:` block:
 * from its key line to the next line at the first column that is neither blank nor a comment.
 */
function inDefaults(cut: ProjectSplit, offset: number): boolean {
  const inHead = offset < cut.head.length;
  const part = inHead ? cut.head : cut.tail;
  const at = inHead ? offset : offset - cut.tailOffset;
  const start = /^defaults:/m.exec(part)?.index;
  if (start === undefined || at < start) return false;
  const body = part.indexOf("\n", start) + 1;
  const next = body === 0 ? null : /^[^ \n#]/m.exec(part.slice(body));
  if (next !== null && at >= body + next.index) return false;
  // In a block `defaults:`, the key at two spaces the offset is under must be one hover explains.
  const above = part.slice(start, part.indexOf("\n", at) < 0 ? part.length : part.indexOf("\n", at));
  const key = [...above.matchAll(/^ {2}([A-Za-z_][A-Za-z0-9_]*)[ ]*:/gm)].at(-1)?.[1];
  if (key !== undefined) return HOVERED_KEYS.has(key);
  // On the key line of a block `defaults:` there is no value; a flow `defaults: {...}` may hold one.
  return !/^defaults:[ ]*(?:#.*)?$/.test(above);
}

/**
 * The hover at `offset` of the document at `path` holding `text` (hover.ts `hoverAt`), read from
 * `cut` when given (keptCut): inside an entry, from that entry's small file (a project's values are
 * its entry's or the head's); in the head or the tail, nothing outside `defaults` (a project's
 * values are written in its entry or in `defaults`) or under a key of it that hover does not
 * explain, and elsewhere in `defaults` from the first entries' small
 * files in file order (the first project that takes the value explains it), then the whole text.
 */
export function hoverInDocument(
  path: string,
  text: string,
  offset: number,
  sources: HoverSources,
  cut: ProjectSplit | undefined,
): { readonly hover: HoverText | undefined; readonly read: HoverRead } {
  if (cut === undefined) return { hover: hoverAt(path, text, offset, sources), read: "whole" };
  const at = entryHolding(cut, offset);
  if (at >= 0)
    return { hover: hoverInEntry(path, cut, cut.chunks[at] as ProjectChunk, offset, sources), read: "entry" };
  // Outside `defaults`, nothing in the head or the tail is a project's value.
  if (!inDefaults(cut, offset)) return { hover: undefined, read: "entry" };
  for (const chunk of cut.chunks.slice(0, HEAD_TRIES)) {
    const hover = hoverInEntry(path, cut, chunk, offset, sources);
    if (hover !== undefined) return { hover, read: "entry" };
  }
  if (cut.chunks.length <= HEAD_TRIES) return { hover: undefined, read: "entry" };
  return { hover: hoverAt(path, text, offset, sources), read: "whole" };
}
