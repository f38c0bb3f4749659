/**
 * Quick fixes, pure: for the published diagnostics the editor asks about, one code action per fix (fix-edits.ts), each naming the diagnostic it removes; the first
 * fix of a diagnostic is the preferred one (what the hint says first).
 */
import {
  type CodeAction,
  CodeActionKind,
  type Diagnostic as LspDiagnostic,
  type Position,
  type Range,
} from "vscode-languageserver";
import { maskKeyShaped } from "../../src/contract/key-shaped.js";
import type { FixEdits } from "./fix-edits.js";

/** A diagnostic as published, with its fixes as edits of the text it was found in. */
export interface PublishedDiagnostic {
  readonly lsp: LspDiagnostic;
  /** Its fixes as edits, made on demand (none when it has none). */
  readonly fixes: () => readonly FixEdits[];
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** True when the ranges share a position (an empty range at either end counts). */
function meets(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

const same = (a: Range, b: Range): boolean =>
  a.start.line === b.start.line &&
  a.start.character === b.start.character &&
  a.end.line === b.end.line &&
  a.end.character === b.end.character;

/**
 * The quick fixes for the diagnostics the editor names (`context.diagnostics`, matched by code and
 * range), or, when it names none, for every diagnostic whose range meets `range`.
 */
export function codeActions(
  uri: string,
  entries: readonly PublishedDiagnostic[],
  range: Range,
  asked: readonly LspDiagnostic[] = [],
): CodeAction[] {
  const wanted = (e: PublishedDiagnostic): boolean =>
    asked.length === 0
      ? meets(e.lsp.range, range)
      : asked.some((a) => a.code === e.lsp.code && same(a.range, e.lsp.range));
  return entries.filter(wanted).flatMap((e) =>
    e.fixes().map(
      (fix): CodeAction => ({
        // The edit is the user's own text; its title is shown, so an API key in it is masked.
        title: maskKeyShaped(fix.title),
        kind: CodeActionKind.QuickFix,
        diagnostics: [e.lsp],
        isPreferred: fix.preferred,
        edit: { changes: { [uri]: [...fix.edits] } },
      }),
    ),
  );
}
