/**
 * One diagnostic, at the place the user must edit, for three YAML slips the `yaml` library reports
 * far from their cause (issue 25 item 5):
 * - an unclosed quote: the library reads the rest of the file as the text and reports the end of
 *   the file; this points at the quote that opens it;
 * - a list item without its `- `: the library reports two or three errors about mapping columns and
 *   keys; this points at the line that lacks the dash;
 * - a `message` written as YAML structure (lines that start with `- `, a line holding `: `): this
 *   says that a message is one text and how to write it (`message: |`).
 * - a key line written another way (`state:draft`, `state = draft`, `name GOTV`, a `//` comment).
 * Each finding keeps only the library errors it explains; errors elsewhere in the file stay. Pure;
 * linear in the file's length (the CST is read again only when a quote is reported unclosed).
 */
import type { SourceText } from "./source-range.js";
import { keyLines } from "./yaml-key-lines.js";
import { messageStructure } from "./yaml-message-structure.js";
import { missingDashes } from "./yaml-missing-dash.js";
import { errorsOnLines, type Found, readLines, type Slip } from "./yaml-slip-scan.js";
import type { YamlProblem } from "./yaml-tabs.js";
import { unclosedBracket, unclosedQuote } from "./yaml-unclosed.js";

export type { Slip } from "./yaml-slip-scan.js";

/** Whether a slip explains an error: a binary search over the slips' merged ranges (linearithmic). */
export function explainedBySlips(slips: readonly Slip[]): (error: YamlProblem) => boolean {
  const merged: [number, number][] = [];
  for (const { from, to } of [...slips].sort((a, b) => a.from - b.from)) {
    const last = merged[merged.length - 1];
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return (error) => {
    const at = error.pos[0];
    let lo = 0;
    let hi = merged.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const range = merged[mid];
      if (range === undefined) return false;
      if (at < range[0]) hi = mid - 1;
      else if (at >= range[1]) lo = mid + 1;
      else return true;
    }
    return false;
  };
}

export function yamlSlips(source: SourceText, errors: readonly YamlProblem[]): Slip[] {
  if (errors.length === 0) return [];
  const out: Slip[] = [];
  const quote = unclosedQuote(source, errors);
  if (quote !== undefined) out.push(quote);
  const bracket = quote === undefined ? unclosedBracket(source, errors) : undefined;
  if (bracket !== undefined) out.push(bracket);
  const before = explainedBySlips(out);
  const rest = errors.filter((e) => !before(e)).sort((a, b) => a.pos[0] - b.pos[0]);
  if (rest.length === 0) return out;
  const lines = readLines(source.text);
  const onLine = errorsOnLines(lines, rest);
  // Each kind in turn, in file order: a finding whose first error an earlier one explains is left out.
  for (const kind of [
    messageStructure(source, lines, rest),
    missingDashes(source, lines, onLine),
    keyLines(source, lines, onLine),
  ]) {
    const explained = explainedBySlips(out);
    let last: Found | undefined;
    for (const slip of kind) {
      if (explained(slip.firstError)) continue;
      if (last !== undefined && slip.firstError.pos[0] < last.to) continue;
      out.push({ diagnostic: slip.diagnostic, from: slip.from, to: slip.to });
      last = slip;
    }
  }
  return out;
}
