/**
 * Diagnostics as a Markdown list (PR comments): severity, code, place, message and hint per item,
 * user text escaped; the template instances a finding is for, when two or more, in one sub-item
 * (instance-places.ts). Pure. Source excerpts are left out: the reviewer has the diff of the files.
 */
import type { Diagnostic, RelatedInformation, SourceRange } from "../diagnostics/diagnostic.js";
import { instanceCount, instancesByFile } from "./instance-places.js";
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
      item += related(d.related ?? []);
      if (d.hint !== undefined) item += `\n  - hint: ${escapeMarkdown(d.hint)}`;
      return item;
    })
    .join("\n");
}

/** One sub-item per related place, but the instances in one where the first is. */
function related(places: readonly RelatedInformation[]): string {
  const listed = instancesByFile(places);
  let out = "";
  let done = false;
  for (const r of places) {
    if (listed !== undefined && r.instance !== undefined) {
      if (!done)
        for (const f of listed)
          out += `\n  - for ${instanceCount(listed)} in ${codeSpan(f.file)}: ${f.entries.map((e) => codeSpan(e)).join(", ")}`;
      done = true;
      continue;
    }
    out += `\n  - ${escapeMarkdown(r.message)} at ${place(r.range)}`;
  }
  return out;
}
