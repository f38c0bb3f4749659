/**
 * Findings kept in validate's order (compareDiagnostics) between edits, so an edit's list is put
 * together by merging, not sorted whole: an edit of one project of a 10,000-project file merges its
 * few findings into 15,000 kept ones with a binary search each, where a sort compared every
 * finding about log2(15,834) times. Pure.
 */
import type { FileCheck } from "../../src/campaign/file-check.js";
import { compareDiagnostics, type Diagnostic } from "../../src/diagnostics/diagnostic.js";

/** `list` when it is in validate's order, else a sorted copy (stable: ties keep their order). */
export function inValidateOrder(list: readonly Diagnostic[]): readonly Diagnostic[] {
  for (let i = 1; i < list.length; i++)
    if (compareDiagnostics(list[i - 1] as Diagnostic, list[i] as Diagnostic) > 0)
      return [...list].sort(compareDiagnostics);
  return list;
}

/** The first index in `list` from `from` whose finding sorts after `d` (ties stay before it). */
function after(list: readonly Diagnostic[], d: Diagnostic, from: number): number {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareDiagnostics(list[mid] as Diagnostic, d) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The findings of `a` and `b` (each in validate's order) in validate's order, `a`'s first among
 * equals: exactly what a stable sort of `[...a, ...b]` gives. The longer list is copied in runs.
 */
export function mergeInOrder(a: readonly Diagnostic[], b: readonly Diagnostic[]): readonly Diagnostic[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  if (b.length > a.length) return mergeShortFirst(a, b);
  const out: Diagnostic[] = [];
  let from = 0;
  for (const d of b) {
    const to = after(a, d, from);
    for (let i = from; i < to; i++) out.push(a[i] as Diagnostic);
    out.push(d);
    from = to;
  }
  for (let i = from; i < a.length; i++) out.push(a[i] as Diagnostic);
  return out;
}

/** As mergeInOrder, for a short `a`: each of `a` placed before the first of `b` that sorts after it. */
function mergeShortFirst(a: readonly Diagnostic[], b: readonly Diagnostic[]): readonly Diagnostic[] {
  const out: Diagnostic[] = [];
  let from = 0;
  for (const d of a) {
    // The first of b not sorting before d: b's equals of d come after it.
    let lo = from;
    let hi = b.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareDiagnostics(b[mid] as Diagnostic, d) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = from; i < lo; i++) out.push(b[i] as Diagnostic);
    out.push(d);
    from = lo;
  }
  for (let i = from; i < b.length; i++) out.push(b[i] as Diagnostic);
  return out;
}

/** `check` with its findings in validate's order (the same object when they are). */
export function checkInOrder(check: FileCheck): FileCheck {
  const diagnostics = inValidateOrder(check.diagnostics);
  return diagnostics === check.diagnostics ? check : { ...check, diagnostics };
}
