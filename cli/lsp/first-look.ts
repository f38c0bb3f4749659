/**
 * The first diagnostics of a large document the server opens, before its whole check: `validate`'s
 * file check (../validate/validate-check.ts) of a small file made of the document's head, its first
 * projects (about FIRST_LOOK_BYTES of them) and its tail, the findings that lie in the head and
 * those projects kept (at the same places in the document: the text before them is the same). A
 * 10,000-project file takes seconds to check whole (its YAML parse alone); its first screen's
 * findings take milliseconds. The whole check's findings are published right after and replace
 * these (the protocol's publish is the document's whole list).
 *
 * Only where the findings of those projects are certain to be among the whole check's: a file of
 * `projects:` whose small file is cut for certain (project-chunks.ts; a template's instances are
 * not: their findings at the template's values are grouped over every instance, with a count),
 * decoded without a finding, and a small file whose check is one valid project per entry without
 * a structural finding. (A finding the rest of the file would turn into a structural one, a key
 * written twice say, is shown until the whole check replaces it.) Findings without a place, in the tail, or across projects and files wait for the whole
 * check. test/lsp/first-look.test.ts checks they are among the whole check's along edits. Pure
 * but for policy discovery (the same as the whole check's).
 */
import { decodeEditorText } from "../../src/campaign/decode.js";
import { compareDiagnostics, type Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { LookCache } from "../policy-discovery/discover.js";
import { validateFileAlone } from "../validate/validate-check.js";
import { type DocumentCheckContext, isCampaignDocument, jobOf } from "./check-document.js";
import { isStructural } from "./incremental-check.js";
import { splitProjects } from "./project-chunks.js";

/** How much of the document's projects the first look checks (and a quarter of the smallest text it is for). */
export const FIRST_LOOK_BYTES = 8 * 1024;

const PROJECTS_LINE = /^projects:[ ]*(?:#[^\n]*)?\n/m;
/** A line at the top level (not blank, not a comment): where the `projects:` block ends. */
const TOP_LINE = /^[^ \n#]/gm;
/** An entry's key line (two spaces, then not a comment), its key up to the colon. */
const ENTRY_LINE = /^ {2}([^ \n#][^:\n]*)/gm;
/** A key that is not plain (quoted, explicit, an alias or tag, a flow collection). */
const NOT_PLAIN = /^["'?&*!{[]/;

/** The document cut after its first projects: the small file's text and where the cut is. */
interface FirstPart {
  readonly small: string;
  readonly end: number;
  /** The keys of the projects left out. */
  readonly later: ReadonlySet<string>;
}

/**
 * The document's text without the projects after its first `bytes` of them (at least one), where
 * they were cut, and the keys of those left out: found with a few scans of the text, not a cut of
 * every project.
 */
function firstPart(text: string, bytes: number): FirstPart | undefined {
  const projects = PROJECTS_LINE.exec(text);
  if (projects === null) return undefined;
  const start = projects.index + projects[0].length;
  TOP_LINE.lastIndex = start;
  const blockEnd = TOP_LINE.exec(text)?.index ?? text.length;
  // The first entry to start past `bytes` of the block (after its first entry) is the cut.
  ENTRY_LINE.lastIndex = start + 1;
  let end = blockEnd;
  const later = new Set<string>();
  for (let m = ENTRY_LINE.exec(text); m !== null && m.index < blockEnd; m = ENTRY_LINE.exec(text)) {
    if (end === blockEnd && m.index > start + bytes) end = m.index;
    if (end !== blockEnd) later.add((m[1] as string).trimEnd());
  }
  return { small: `${text.slice(0, end)}${text.slice(blockEnd)}`, end, later };
}

/** True when no project left out may be one of the first (a key written twice is the file's). */
function keysApart(part: FirstPart, addresses: readonly string[]): boolean {
  for (const key of part.later) if (NOT_PLAIN.test(key)) return false;
  return addresses.every((a) => !part.later.has(a));
}

/**
 * The findings of the document's head and first projects, or undefined where the first look does
 * not apply (a small document: its whole check is as quick).
 */
export function firstLook(
  path: string,
  text: string,
  context: DocumentCheckContext,
  looks?: LookCache,
  bytes = FIRST_LOOK_BYTES,
): Diagnostic[] | undefined {
  if (text.length <= 4 * bytes || !isCampaignDocument(path, text)) return undefined;
  const decoded = decodeEditorText(path, text);
  if (decoded.file === undefined || decoded.diagnostics.length > 0) return undefined;
  const part = firstPart(decoded.file.text, bytes);
  const split = part === undefined ? undefined : splitProjects(part.small);
  if (part === undefined || split === undefined || split.kind !== "projects") return undefined;
  // The cut of the small text is certain and ends where the document's projects were cut.
  if (split.tailOffset !== part.end) return undefined;
  if (
    !keysApart(
      part,
      split.chunks.map((c) => c.address),
    )
  )
    return undefined;
  const { job, policy } = jobOf(context, path, looks);
  const check = validateFileAlone({ path, text: part.small, sha256: "" }, job);
  const certain =
    check.declarations.length === split.chunks.length &&
    check.projects.length === split.chunks.length &&
    check.projects.every((p, i) => p.address === split.chunks[i]?.address) &&
    !check.diagnostics.some((d) => isStructural(d.code));
  if (!certain) return undefined;
  const placed = check.diagnostics.filter((d) => d.range?.file === path && before(d, path, part.end));
  return [...placed, ...policy.diagnostics].sort(compareDiagnostics);
}

/** True when every place of `d` in the file ends by `end` (the text the small file shares). */
function before(d: Diagnostic, path: string, end: number): boolean {
  const places = [
    ...(d.range === undefined ? [] : [d.range]),
    ...(d.related ?? []).map((r) => r.range),
    ...(d.fixes ?? []).flatMap((f) => f.also ?? []),
  ];
  return places.every((r) => r.file !== path || r.end.offset <= end);
}
