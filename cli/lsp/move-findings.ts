/**
 * Findings and the data of a check moved to where an edit put them (incremental-check.ts): each
 * range in the document moved by the delta its place calls for, or undefined when no delta is
 * certain; what did not move is the same object (the server reuses its published form,
 * lsp-forms.ts). A copy that moved by offsets only, every line and column kept, is remembered as
 * at its original's place. Pure.
 */
import type { FileDeclaration } from "../../src/campaign/assemble.js";
import type { CrossProjectData } from "../../src/campaign/cross-project.js";
import type { Diagnostic, SourcePosition, SourceRange } from "../../src/diagnostics/diagnostic.js";

/** How far positions move: in UTF-16 code units, and in lines (columns do not move). */
export interface Delta {
  readonly offset: number;
  readonly line: number;
}

export const ZERO: Delta = { offset: 0, line: 0 };

function movePosition(p: SourcePosition, d: Delta): SourcePosition {
  return { line: p.line + d.line, column: p.column, offset: p.offset + d.offset };
}

/** A range moved by the delta its place calls for, or undefined when no delta is certain. */
export type Mover = (range: SourceRange) => SourceRange | undefined;

export function mover(path: string, deltaOf: (start: number, end: number) => Delta | undefined): Mover {
  return (range) => {
    if (range.file !== path) return range;
    const d = deltaOf(range.start.offset, range.end.offset);
    if (d === undefined) return undefined;
    if (d.offset === 0 && d.line === 0) return range;
    return { file: range.file, start: movePosition(range.start, d), end: movePosition(range.end, d) };
  };
}

/**
 * Moved copies whose every line and column is the original's (only offsets moved), to the first
 * original: what is published for them (lines and columns) is the original's, and the server
 * reuses its LSP form (lsp-forms.ts) instead of making it again.
 */
const samePlace = new WeakMap<Diagnostic, Diagnostic>();

/** The finding `d` was moved from with every line and column kept (itself when none). */
export function samePlaceOrigin(d: Diagnostic): Diagnostic {
  return samePlace.get(d) ?? d;
}

function samePoint(a: SourcePosition, b: SourcePosition): boolean {
  return a.line === b.line && a.column === b.column;
}

function sameLines(a: SourceRange | undefined, b: SourceRange | undefined): boolean {
  return (
    a === b || (a !== undefined && b !== undefined && samePoint(a.start, b.start) && samePoint(a.end, b.end))
  );
}

/** `copy`, remembered as at `d`'s place when its ranges' lines and columns are `d`'s. */
function remember(d: Diagnostic, copy: Diagnostic): Diagnostic {
  const related = copy.related ?? [];
  if (sameLines(d.range, copy.range) && related.every((r, i) => sameLines(r.range, d.related?.[i]?.range)))
    samePlace.set(copy, samePlace.get(d) ?? d);
  return copy;
}

/** The diagnostic with every range in the file moved, or undefined when one cannot be. */
export function moveDiagnostic(d: Diagnostic, move: Mover): Diagnostic | undefined {
  if (d.related === undefined && d.fixes === undefined) {
    // The usual finding: one range (or none).
    if (d.range === undefined) return d;
    const range = move(d.range);
    return range === undefined ? undefined : range === d.range ? d : remember(d, { ...d, range });
  }
  let failed = false;
  const m = (r: SourceRange): SourceRange => {
    const moved = move(r);
    if (moved === undefined) failed = true;
    return moved ?? r;
  };
  const range = d.range === undefined ? undefined : m(d.range);
  let moved = range !== d.range;
  const related = d.related?.map((r) => {
    const to = m(r.range);
    if (to === r.range) return r;
    moved = true;
    return { ...r, range: to };
  });
  const fixes = d.fixes?.map((f) => {
    if (f.also === undefined) return f;
    const also = f.also.map(m);
    if (also.every((r, i) => r === f.also?.[i])) return f;
    moved = true;
    return { ...f, also };
  });
  if (failed) return undefined;
  if (!moved) return d;
  return remember(d, {
    ...d,
    ...(range === undefined ? {} : { range }),
    ...(related === undefined ? {} : { related }),
    ...(fixes === undefined ? {} : { fixes }),
  });
}

/**
 * Each item moved by `one` (undefined when one cannot be); the same array when none moved, so what
 * did not move is not copied (an edit of one entry leaves the ones before it where they were).
 */
export function moveAll<T>(items: readonly T[], one: (item: T) => T | undefined): readonly T[] | undefined {
  let out: T[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as T;
    const moved = one(item);
    if (moved === undefined) return undefined;
    if (out === undefined && moved !== item) out = items.slice(0, i);
    out?.push(moved);
  }
  return out ?? items;
}

/**
 * The cross-project data with every range moved (its origin's too: where a template's instance and
 * the template are written), the same object when none moved; undefined when one cannot be.
 */
export function moveCross(p: CrossProjectData, move: Mover): CrossProjectData | undefined {
  const key = move(p.ranges.key);
  const id = move(p.ranges.id);
  const scheduleAt = move(p.ranges.scheduleAt);
  const after = moveAll(p.ranges.after, move);
  if (key === undefined || id === undefined || scheduleAt === undefined || after === undefined)
    return undefined;
  const origin = p.origin === undefined ? undefined : moveOrigin(p.origin, move);
  if (p.origin !== undefined && origin === undefined) return undefined;
  const same =
    key === p.ranges.key &&
    id === p.ranges.id &&
    scheduleAt === p.ranges.scheduleAt &&
    after === p.ranges.after &&
    origin === p.origin;
  if (same) return p;
  return { ...p, ...(origin === undefined ? {} : { origin }), ranges: { key, id, scheduleAt, after } };
}

type CrossOrigin = NonNullable<CrossProjectData["origin"]>;

function moveOrigin(origin: CrossOrigin, move: Mover): CrossOrigin | undefined {
  const { value, span } = origin;
  const instanceRange = move(value.instanceRange);
  const templateRange = move(value.templateRange);
  if (instanceRange === undefined || templateRange === undefined) return undefined;
  if (instanceRange === value.instanceRange && templateRange === value.templateRange) return origin;
  // The instance's span moves with its key (the span starts at the key, both in the file).
  const shift = instanceRange.start.offset - value.instanceRange.start.offset;
  return {
    ...origin,
    value: { ...value, instanceRange, templateRange },
    ...(span === undefined ? {} : { span: [span[0] + shift, span[1] + shift] as const }),
  };
}

export function moveDeclaration(d: FileDeclaration, move: Mover): FileDeclaration | undefined {
  const range = move(d.range);
  return range === undefined ? undefined : range === d.range ? d : { address: d.address, range };
}
