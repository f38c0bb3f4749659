/**
 * Diagnostics as a Markdown list (PR comments): severity, code, place, message and hint per item,
 * user text escaped. Pure. Source excerpts are left out: the reviewer has the diff of the files.
 */
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { codeSpan, escapeMarkdown } from "./markdown-escape.js";

function place(range: SourceRange): string {
  return codeSpan(`${range.file}:${range.start.line}:${range.start.column}`);
}

/** One list item per diagnostic (`- **error** \`code\` at \`file:1:2\`: message`), joined by newlines. */
export function renderDiagnosticsMarkdown(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .map((d) => {
      const where = d.range === undefined ? "" : ` at ${place(d.range)}`;
      let item = `- **${d.severity}** ${codeSpan(d.code)}${where}: ${escapeMarkdown(d.message)}`;
      for (const r of d.related ?? []) item += `\n  - ${escapeMarkdown(r.message)} at ${place(r.range)}`;
      if (d.hint !== undefined) item += `\n  - hint: ${escapeMarkdown(d.hint)}`;
      return item;
    })
    .join("\n");
}
