/**
 * The language server's check of an edited document without checking it whole: when an edit
 * changes one `projects:` entry or one instance of a template (project-chunks.ts), only that entry
 * is checked again, by
 * `validate`'s own file check (../validate/validate-check.ts) run on a small file made of the document's
 * head, that entry and its tail; the findings are moved to the entry's place in the document. The
 * same small file with the entry as it was gives the findings to take out. Pure.
 *
 * It is exact only where a file's findings are the sum of each project's with the file's shared
 * part (head and tail); every condition under which that is not certain gives undefined, and the
 * caller checks the file whole: a cut that is not certain (see splitProjects), an entry that is not
 * a schema-valid project in either version (schema errors change how a file's projects are built,
 * key-trust.ts), any YAML finding, shared findings (outside the entry) that differ between the two
 * versions, findings in the entry that are not exactly the old small file's, a range that spans
 * the entry's edge, or another finding that points into the entry (a template's finding naming
 * every instance that sends a variant). An instance's findings at the template's values (marked as
 * for that instance, template-origin.ts) are the entry's. test/cli/lsp-incremental.test.ts compares
 * the result with a whole check after every edit of a series, test/lsp/agreement.test.ts along
 * seeded random edits of project and template files.
 */
import type { FileDeclaration } from "../../src/campaign/assemble.js";
import type { CrossProjectData } from "../../src/campaign/cross-project.js";
import type { FileCheck } from "../../src/campaign/file-check.js";
import type { CampaignFile } from "../../src/campaign/model.js";
import { instancePlaces } from "../../src/campaign/template-findings.js";
import type { Diagnostic, SourceRange } from "../../src/diagnostics/diagnostic.js";
import { type ValidateJob, validateFileAlone } from "../validate/validate-check.js";
import {
  type Delta,
  type Mover,
  moveAll,
  moveCross,
  moveDeclaration,
  moveDiagnostic,
  mover,
  ZERO,
} from "./move-findings.js";
import { type ProjectChunk, type ProjectSplit, splitProjects } from "./project-chunks.js";
import { checkInOrder, inValidateOrder, mergeInOrder } from "./sorted-findings.js";

export { moveAll, moveDiagnostic, samePlaceOrigin } from "./move-findings.js";

/** A document's own check as last made; invariant: its findings in validate's order (sorted-findings.ts). */
export interface OwnState {
  /** What the check depended on besides the text and the clock (the job without `now`: policy). */
  readonly jobKey: string;
  /** The job's `now` (epoch ms, or null) the check judged schedules against. */
  readonly now: number | null;
  readonly text: string;
  readonly split: ProjectSplit | undefined;
  readonly check: FileCheck;
}

/** How positions moved from the previous text to this one, for reusing findings across files. */
export interface OwnMove {
  readonly move: (range: SourceRange) => SourceRange | undefined;
  /** True when what the checks across files read of the edited entry did not change. */
  readonly crossSame: boolean;
}

/** Small files' checks by text, most recent last (an edit's new version is the next edit's old). */
export type MiniCache = Map<string, FileCheck>;

const MINI_CACHE_SIZE = 8;

/** Findings that put the file's structure in question, or count keys file-wide: never in small files. */
const STRUCTURAL =
  /^campaign\.(yaml-|duplicate-key|unclosed-|list-item-dash|multiple-documents|not-campaign-file|empty-file|message-not-text|api-key-in-file)/;

/** True for a finding that puts the file's structure in question (never handled by small files). */
export function isStructural(code: string): boolean {
  return STRUCTURAL.test(code);
}

/** Moves ranges of the small file (head, entry, tail) to the entry's document. */
function fromMini(path: string, split: ProjectSplit, chunk: ProjectChunk): Mover {
  const head = split.head.length;
  const end = head + chunk.text.length;
  const inChunk: Delta = { offset: chunk.offset - head, line: chunk.line - split.headLines };
  const inTail: Delta = {
    offset: split.tailOffset - end,
    line: split.tailLine - (split.headLines + chunk.lines),
  };
  return mover(path, (start, stop) => {
    if (stop < start) return undefined;
    if (start < head) return stop <= head ? ZERO : undefined;
    if (start < end) return stop <= end ? inChunk : undefined;
    return inTail;
  });
}

/**
 * True when the finding is the entry's: its range starts in the entry at `[start, end)`, or, for a
 * template's instance, it is a finding on that instance's project at a value the template (or the
 * file) wrote, marked as for that instance alone (template-origin.ts).
 */
function owned(path: string, kind: ProjectSplit["kind"], chunk: ProjectChunk, start: number, d: Diagnostic) {
  const r = d.range;
  if (
    r !== undefined &&
    r.file === path &&
    r.start.offset >= start &&
    r.start.offset < start + chunk.text.length
  )
    return true;
  if (kind !== "instances") return false;
  const marked = instancePlaces(d);
  return marked.length === 1 && marked[0]?.instance.address === chunk.address;
}

/** True when the finding (in the small file) is the entry's. */
function inEntry(path: string, split: ProjectSplit, chunk: ProjectChunk, d: Diagnostic): boolean {
  return owned(path, split.kind, chunk, split.head.length, d);
}

function miniCheck(
  file: CampaignFile,
  split: ProjectSplit,
  chunk: ProjectChunk,
  job: ValidateJob,
  jobKey: string,
  cache: MiniCache,
): FileCheck {
  const text = `${split.head}${chunk.text}${split.tail}`;
  const key = `${jobKey}\0${job.now}\0${file.path}\0${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const checked = validateFileAlone({ path: file.path, text, sha256: "" }, job);
  cache.set(key, checked);
  while (cache.size > MINI_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return checked;
}

/** The small file's check is one the sum can use: one valid project, no structural finding. */
function usable(check: FileCheck, chunk: ProjectChunk): boolean {
  return (
    check.declarations.length === 1 &&
    check.declarations[0]?.address === chunk.address &&
    check.projects.length === 1 &&
    check.projects[0]?.address === chunk.address &&
    !check.diagnostics.some((d) => STRUCTURAL.test(d.code))
  );
}

function json(d: unknown): string {
  return JSON.stringify(d);
}

/**
 * What the checks across files read of the small file's projects, as JSON: everything but where
 * an instance's value ends. That end only decides whether a finding at one of the ranges compared
 * here lies in the instance (template-origin.ts), and with the ranges unchanged it does not move
 * past one of them (they lie in the instance, or before it, in the template).
 */
function crossJson(projects: readonly CrossProjectData[]): string {
  return JSON.stringify(
    projects.map((p) =>
      p.origin?.span === undefined ? p : { ...p, origin: { ...p.origin, span: p.origin.span[0] } },
    ),
  );
}

/**
 * How positions of the previous text move to the edited one: `move` for anything (a place inside
 * the entry keeps its offset), `outside` for what must lie outside the entry (undefined inside).
 */
function documentMovers(path: string, was: ProjectChunk, now: ProjectChunk): { move: Mover; outside: Mover } {
  const wasEnd = was.offset + was.text.length;
  // Positions after the entry move by the change in its length.
  const after: Delta = { offset: now.text.length - was.text.length, line: now.lines - was.lines };
  const move = mover(path, (start, stop) => {
    if (stop < start) return undefined;
    if (start < was.offset) return stop <= was.offset ? ZERO : undefined;
    if (start < wasEnd) return stop <= wasEnd ? ZERO : undefined;
    return after;
  });
  // The other findings point nowhere into the entry (one that did may have changed with it).
  const outside = mover(path, (start, stop) => {
    if (stop < start) return undefined;
    if (start < was.offset) return stop <= was.offset ? ZERO : undefined;
    return start >= wasEnd ? after : undefined;
  });
  return { move, outside };
}

/** The declarations and projects with entry `changed` (`address`) replaced by the fresh check's, the others moved. */
function replaceEntry(
  previous: FileCheck,
  changed: number,
  address: string,
  fresh: FileCheck,
  newMove: Mover,
  move: Mover,
): Pick<FileCheck, "declarations" | "projects"> | undefined {
  const declarations = previous.declarations;
  if (declarations[changed]?.address !== address) return undefined;
  const newDeclaration = moveDeclaration(fresh.declarations[0] as FileDeclaration, newMove);
  const movedDeclarations = moveAll(declarations, (d) =>
    d === declarations[changed] ? newDeclaration : moveDeclaration(d, move),
  );
  const index = previous.projects.findIndex((p) => p.address === address);
  const newProject = moveCross(fresh.projects[0] as CrossProjectData, newMove);
  if (index < 0 || newProject === undefined || movedDeclarations === undefined) return undefined;
  const projects = moveAll(previous.projects, (p) =>
    p === previous.projects[index] ? newProject : moveCross(p, move),
  );
  return projects === undefined ? undefined : { declarations: movedDeclarations, projects };
}

/**
 * The index of the one entry whose text differs between the two cuts, -1 when none does, or
 * undefined when more than one does.
 */
function changedEntry(before: ProjectSplit, split: ProjectSplit): number | undefined {
  let changed = -1;
  for (let i = 0; i < split.chunks.length; i++) {
    if ((before.chunks[i] as ProjectChunk).text === (split.chunks[i] as ProjectChunk).text) continue;
    if (changed >= 0) return undefined;
    changed = i;
  }
  return changed;
}

/**
 * True when the entry's findings in the previous check (`inWas`) are exactly the old small file's
 * findings in the entry (`inOld`), moved to the document by `oldMove`.
 */
function sameEntryFindings(
  previous: FileCheck,
  inWas: (d: Diagnostic) => boolean,
  old: FileCheck,
  inOld: (d: Diagnostic) => boolean,
  oldMove: Mover,
): boolean {
  const expected = moveAll(old.diagnostics.filter(inOld), (d) => moveDiagnostic(d, oldMove));
  if (expected === undefined) return false;
  const found = previous.diagnostics.filter(inWas);
  if (found.length !== expected.length) return false;
  const a = found.map(json).sort();
  const b = expected.map(json).sort();
  return a.every((x, i) => x === b[i]);
}

/**
 * The document's own check (validate's file check) for `file`, reusing `previous` when only one
 * project entry changed; undefined when that is not certain (the caller checks the file whole).
 */
export function checkIncrementally(
  previous: OwnState,
  file: CampaignFile,
  split: ProjectSplit,
  job: ValidateJob,
  jobKey: string,
  cache: MiniCache,
): { readonly check: FileCheck; readonly moved: OwnMove } | undefined {
  const before = previous.split;
  if (before === undefined || previous.jobKey !== jobKey) return undefined;
  if (previous.now !== job.now && !clockIndifferent(file.text, previous, job.now)) return undefined;
  if (before.kind !== split.kind || before.head !== split.head || before.tail !== split.tail)
    return undefined;
  if (before.chunks.length !== split.chunks.length) return undefined;
  // Every project valid: a schema error anywhere changes how the file's projects are built.
  if (previous.check.projects.length !== before.chunks.length) return undefined;
  const changed = changedEntry(before, split);
  const path = file.path;
  if (changed === undefined) return undefined;
  if (changed < 0) return { check: previous.check, moved: { move: (r) => r, crossSame: true } };
  const was = before.chunks[changed] as ProjectChunk;
  const now = split.chunks[changed] as ProjectChunk;
  const old = miniCheck(file, before, was, job, jobKey, cache);
  const fresh = miniCheck(file, split, now, job, jobKey, cache);
  if (!usable(old, was) || !usable(fresh, now)) return undefined;
  // The shared findings (outside the entry) must not depend on it.
  const shared = (c: FileCheck, chunk: ProjectChunk, s: ProjectSplit): string | undefined => {
    // Tail positions counted from the tail's start, so the two small files compare.
    const head = s.head.length;
    const end = head + chunk.text.length;
    const fromTail: Delta = { offset: -end, line: -(s.headLines + chunk.lines) };
    const relative = mover(path, (start, stop) =>
      start >= end ? fromTail : stop <= head ? ZERO : undefined,
    );
    const moved = moveAll(
      c.diagnostics.filter((d) => !inEntry(path, s, chunk, d)),
      (d) => moveDiagnostic(d, relative),
    );
    return moved === undefined ? undefined : json(moved);
  };
  const sharedOld = shared(old, was, before);
  if (sharedOld === undefined || sharedOld !== shared(fresh, now, split)) return undefined;
  const oldMove = fromMini(path, before, was);
  const newMove = fromMini(path, split, now);
  // The entry's findings in the previous check must be exactly the old small file's.
  const inWas = (d: Diagnostic): boolean => owned(path, split.kind, was, was.offset, d);
  if (!sameEntryFindings(previous.check, inWas, old, (d) => inEntry(path, before, was, d), oldMove))
    return undefined;
  const { move, outside } = documentMovers(path, was, now);
  const kept = moveAll(
    previous.check.diagnostics.filter((d) => !inWas(d)),
    (d) => moveDiagnostic(d, outside),
  );
  const added = moveAll(
    fresh.diagnostics.filter((d) => inEntry(path, split, now, d)),
    (d) => moveDiagnostic(d, newMove),
  );
  if (kept === undefined || added === undefined) return undefined;
  if (previous.check.declarations.length !== split.chunks.length) return undefined;
  const entries = replaceEntry(previous.check, changed, was.address, fresh, newMove, move);
  if (entries === undefined) return undefined;
  return {
    // The kept findings keep their order (those after the entry move together); the entry's merge in.
    check: { diagnostics: mergeInOrder(kept, inValidateOrder(added)), ...entries },
    moved: {
      move,
      crossSame:
        crossJson(old.projects) === crossJson(fresh.projects) &&
        json(old.declarations) === json(fresh.declarations),
    },
  };
}

/** The document's own check, made whole: validate's file check of `file`, with its cut. */
export function checkWhole(file: CampaignFile, job: ValidateJob, jobKey: string): OwnState {
  return {
    jobKey,
    now: job.now,
    text: file.text,
    split: splitProjects(file.text),
    check: checkInOrder(validateFileAlone(file, job)),
  };
}

/** What a job is keyed by besides its clock: the findings that use the clock are judged apart. */
export function jobKeyOf(job: ValidateJob): string {
  return JSON.stringify({ ...job, now: undefined });
}

/** Every `at` key, in block or flow style, quoted or not, with the rest of its line. */
const AT_VALUE = /(?:^|[\s{,])["']?at["']?[ ]*:[ ]*([^\n]*)/gm;
const TIMESTAMP = /^["']?(\d{4}-\d{2}-\d{2}[^"',}\s#]*)/;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * True when moving the clock from the previous check's `now` to `now` cannot change a finding: no
 * finding that names the clock (a schedule in the past), no `at:` in the text (a key or not, block
 * or flow style) that is `now` or not a plain timestamp, and none within a day of either instant (a day covers a timestamp read
 * without its offset). Conservative: a false answer only costs a whole check.
 */
export function clockIndifferent(text: string, previous: OwnState, now: number | null): boolean {
  if (previous.now === null || now === null) return false;
  if (previous.check.diagnostics.some((d) => d.code === "lint.schedule-in-past")) return false;
  const from = Math.min(previous.now, now) - DAY_MS;
  const to = Math.max(previous.now, now) + DAY_MS;
  for (const match of text.matchAll(AT_VALUE)) {
    const value = TIMESTAMP.exec(match[1] ?? "")?.[1];
    if (value === undefined) return false;
    const instant = Date.parse(value);
    if (Number.isNaN(instant) || (instant >= from && instant <= to)) return false;
  }
  return true;
}
