/**
 * The one JSON shape of a diagnostic (`schemas/diagnostic.schema.json`), used by every document
 * campaignctl prints: validate, preview, plan (and saved plans), apply, import and error documents.
 * Every key is always present, so a reader never has to tell a missing key from a null one: `range`
 * and `hint` are null when the diagnostic has none, `related` is an empty list. Keys come in the
 * order of {@link Diagnostic}. Pure.
 */
import type { DiagnosticCode } from "./codes.js";
import type { Diagnostic, RelatedInformation, Severity, SourcePosition, SourceRange } from "./diagnostic.js";
import { maskedKeys } from "./masked-keys.js";

/** A source position as JSON. Invariant: the same numbers as {@link SourcePosition}. */
export interface PositionJson {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** A source range as JSON. Invariant: the same span as {@link SourceRange}. */
export interface RangeJson {
  readonly file: string;
  readonly start: PositionJson;
  readonly end: PositionJson;
}

/**
 * A diagnostic as JSON. Invariants: every key present; `range` and `hint` null where the
 * diagnostic has none; `related` empty where it has none.
 */
export interface DiagnosticJson {
  readonly severity: Severity;
  readonly code: DiagnosticCode;
  readonly message: string;
  readonly range: RangeJson | null;
  readonly hint: string | null;
  readonly related: readonly { readonly message: string; readonly range: RangeJson }[];
}

function positionJson(p: SourcePosition): PositionJson {
  return { line: p.line, column: p.column, offset: p.offset };
}

function rangeJson(range: SourceRange): RangeJson {
  return { file: range.file, start: positionJson(range.start), end: positionJson(range.end) };
}

/** The JSON form of a diagnostic, keys in their documented order (an API key in its words masked). */
export function diagnosticJson(written: Diagnostic): DiagnosticJson {
  const d = maskedKeys(written);
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    range: d.range === undefined ? null : rangeJson(d.range),
    hint: d.hint ?? null,
    related: (d.related ?? []).map((r) => ({ message: r.message, range: rangeJson(r.range) })),
  };
}

/**
 * A diagnostic read back from a document that passed its schema (a saved plan, an apply report):
 * null `range` and `hint` and an empty `related` become absent, so it equals the diagnostic that
 * was written.
 */
export function diagnosticFromJson(j: DiagnosticJson): Diagnostic {
  const related: RelatedInformation[] = j.related.map((r) => ({
    message: r.message,
    range: rangeJson(r.range),
  }));
  return {
    severity: j.severity,
    code: j.code,
    message: j.message,
    ...(j.range === null ? {} : { range: rangeJson(j.range) }),
    ...(j.hint === null ? {} : { hint: j.hint }),
    ...(related.length === 0 ? {} : { related }),
  };
}
