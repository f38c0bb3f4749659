import type { DiagnosticCode } from "./codes.js";

/** How bad a problem is. `error` fails the command; `warning` fails it only under `--strict`. */
export type Severity = "error" | "warning" | "info";

/**
 * A point in a source file. Invariants: `line` and `column` are 1-based and count UTF-16 code units
 * (as editors and `yaml`'s LineCounter do); `offset` is the 0-based UTF-16 offset into the file text.
 */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** A span of one file. Invariant: `start.offset <= end.offset`; `file` is the path as the user gave it. */
export interface SourceRange {
  readonly file: string;
  readonly start: SourcePosition;
  readonly end: SourcePosition;
}

/**
 * A template instance a finding is for (src/campaign/template-origin.ts): its address and its
 * template's name. Invariant: set only on the related place that is the instance's declaration.
 */
export interface InstanceRef {
  readonly address: string;
  readonly template: string;
}

/** A second place that explains a diagnostic (the other half of a duplicate, a cycle member). */
export interface RelatedInformation {
  readonly message: string;
  readonly range: SourceRange;
  /**
   * Set when this place is a template instance the finding, at a template's value, is for: reports
   * list such places compactly, and one finding at a value for many instances is reported once
   * (src/campaign/template-findings.ts). Not part of the JSON document (`message` names the instance).
   */
  readonly instance?: InstanceRef;
}

/**
 * A mechanical repair of a diagnostic, as data: what `validate`'s hint says to write, applied by
 * the language server's code actions (cli/lsp/fix-edits.ts turns it into an edit of the source).
 * Invariant: applying it removes the diagnostic it belongs to; `text` is the value's text (not YAML
 * source: the editor escapes it for the quoting at the place).
 * - `replace-text`: the text at the diagnostic's range (a key, a tag's name, an `after:` entry,
 *   a character of a message) becomes `text`; also at each range of `also`.
 * - `replace-value`: the scalar at the range becomes the string `text`, written in double quotes.
 * - `append-text`: `text` is added at the end of the scalar at the range, after a space.
 */
export interface DiagnosticFix {
  /** What the fix does, as an editor lists it: ``Change to `schedule` ``. */
  readonly title: string;
  readonly edit: "replace-text" | "replace-value" | "append-text";
  readonly text: string;
  /** Further places the same replacement applies to (the other occurrences of a character). */
  readonly also?: readonly SourceRange[];
}

/**
 * The one type for every problem a user can cause or meet, from a YAML typo to a 409 from the API.
 * Invariants: `code` is stable across releases (tests and CI scripts match on it, never on
 * `message`); `message` is one sentence without a trailing period and never contains an API key;
 * `hint`, when present, says what to do about it.
 */
export interface Diagnostic {
  readonly severity: Severity;
  readonly code: DiagnosticCode;
  readonly message: string;
  readonly range?: SourceRange;
  readonly hint?: string;
  readonly related?: readonly RelatedInformation[];
  /** The mechanical repairs the hint describes, best first (not part of the --json document). */
  readonly fixes?: readonly DiagnosticFix[];
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

export function hasWarnings(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "warning");
}

/** Orders diagnostics by file, then position, then code, so output is stable across runs. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  const fa = a.range?.file ?? "";
  const fb = b.range?.file ?? "";
  if (fa !== fb) return fa < fb ? -1 : 1;
  const oa = a.range?.start.offset ?? -1;
  const ob = b.range?.start.offset ?? -1;
  if (oa !== ob) return oa - ob;
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}
