/**
 * The files' problems in the gallery: each diagnostic with its severity in words, code, position and
 * message (and hint), so a reviewer sees them beside the phones. Pure.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { escapeHtml } from "../html-escape.js";

function where(d: Diagnostic): string {
  return d.range === undefined ? "" : `${d.range.file}:${d.range.start.line}:${d.range.start.column}: `;
}

/** A section listing `problems` under an `h{level}` with id `id`; empty when there are none. */
export function problemsHtml(problems: readonly Diagnostic[], id: string, level: 2 | 3): string {
  if (problems.length === 0) return "";
  const items = problems.map((d) => {
    const hint = d.hint === undefined ? "" : `<br><span class="hint">hint: ${escapeHtml(d.hint)}</span>`;
    return `<li class="problem-${d.severity}"><span class="severity">${d.severity}</span> <code>${escapeHtml(d.code)}</code> ${escapeHtml(where(d))}${escapeHtml(d.message)}${hint}</li>`;
  });
  const count = `${problems.length} ${problems.length === 1 ? "problem" : "problems"}`;
  return `<section class="problems" aria-labelledby="${id}"><h${level} id="${id}">Problems in the files (${count})</h${level}><ul>${items.join("")}</ul></section>`;
}
