/**
 * A document's findings as the server publishes them: each one's LSP form (made once per finding,
 * lsp-forms.ts) with its fixes as text edits, made when the editor asks for them (a second parse
 * of the text, code-actions.ts).
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { PublishedDiagnostic } from "./code-actions.js";
import { fixEdits, scalarsOf } from "./fix-edits.js";
import type { LspForms } from "./lsp-forms.js";

/** The findings of `text` (the document at `path`) as published. */
export function publishedEntries(
  forms: LspForms,
  path: string,
  text: string,
  found: readonly Diagnostic[],
): PublishedDiagnostic[] {
  let scalars: ReturnType<typeof scalarsOf> | undefined;
  return found.map((d) => ({
    lsp: forms(d, path),
    fixes: () => {
      if (d.range?.file !== path || d.fixes === undefined) return [];
      scalars ??= scalarsOf(text);
      return fixEdits(text, d, scalars);
    },
  }));
}
