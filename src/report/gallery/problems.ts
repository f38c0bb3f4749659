/**
 * The files' diagnostics in the gallery, headed by severity ("Errors", "Warnings", "Notes"; an info
 * note is never called a problem): each with its severity in words, code, position and message (and
 * hint), so a reviewer sees them beside the phones. Pure.
 */

import { codeMeaning } from "../../diagnostics/code-meaning.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { escapeHtml } from "../html-escape.js";
import { bySeverity, severityHeading } from "../severity-heading.js";

function where(d: Diagnostic): string {
  return d.range === undefined ? "" : `${d.range.file}:${d.range.start.line}:${d.range.start.column}: `;
}

/**
 * One section per severity present in `diagnostics`, each under an `h{level}` with the id
 * `${id}-${severity}` ("Errors (2)"); empty when there are none. `about` ends each heading
 * (` in the files`), saying what they are about.
 */
/** A code with its meaning in words beside it: `lint.segment-growth (a message can grow ...)`. */
export function codeHtml(code: string): string {
  const meaning = codeMeaning(code);
  return `<code>${escapeHtml(code)}</code>${meaning === undefined ? "" : ` <span class="code-meaning">(${escapeHtml(meaning)})</span>`}`;
}

export function problemsHtml(
  diagnostics: readonly Diagnostic[],
  id: string,
  level: 2 | 3,
  about = "",
): string {
  return bySeverity(diagnostics)
    .map(({ severity, diagnostics: group }) => {
      const items = group.map((d) => {
        const hint = d.hint === undefined ? "" : `<br><span class="hint">hint: ${escapeHtml(d.hint)}</span>`;
        return `<li class="problem-${d.severity}"><span class="severity">${d.severity}</span> ${codeHtml(d.code)} ${escapeHtml(where(d))}${escapeHtml(d.message)}${hint}</li>`;
      });
      const headingId = `${id}-${severity}`;
      return `<section class="problems problems-${severity}" aria-labelledby="${headingId}"><h${level} id="${headingId}">${severityHeading(severity)}${about} (${group.length})</h${level}><ul>${items.join("")}</ul></section>`;
    })
    .join("\n");
}
