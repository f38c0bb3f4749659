/**
 * Each finding's LSP form (lsp-diagnostic.ts), made once per finding and kept while the finding
 * lives: a finding an edit did not touch is the same object at the next check (incremental-check.ts
 * keeps it, or moves it without changing a line or a column), so its LSP form, and the bytes the
 * connection encodes it to (publish-encoder.ts), are reused. Invariant: a form is only reused for a
 * finding whose published fields (ranges' lines and columns, code, severity, message, hint,
 * related places) are the ones it was made from, and for the same document file.
 */
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { samePlaceOrigin } from "./incremental-check.js";
import { toLspDiagnostic } from "./lsp-diagnostic.js";

/** `d`'s LSP form on the document whose file is `file`. */
export type LspForms = (d: Diagnostic, file: string) => LspDiagnostic;

/** A cache of LSP forms, for one server session. */
export function lspForms(): LspForms {
  const forms = new WeakMap<Diagnostic, { readonly file: string; readonly lsp: LspDiagnostic }>();
  return (d, file) => {
    const origin = samePlaceOrigin(d);
    const known = forms.get(origin);
    if (known !== undefined && known.file === file) return known.lsp;
    const lsp = toLspDiagnostic(origin, file);
    forms.set(origin, { file, lsp });
    return lsp;
  };
}
