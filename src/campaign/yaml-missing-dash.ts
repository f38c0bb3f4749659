/**
 * A list item without its `- ` (see yaml-slips.ts): the library reports two or three errors about
 * mapping columns and keys; the finding points at the line that lacks the dash.
 */
import { rangeAt, type SourceText } from "./source-range.js";
import { blockEnd, type Found, type Line } from "./yaml-slip-scan.js";
import type { YamlProblem } from "./yaml-tabs.js";

export function missingDashes(
  source: SourceText,
  lines: readonly Line[],
  onLine: ReadonlyMap<number, readonly YamlProblem[]>,
): Found[] {
  const out: Found[] = [];
  lines.forEach((line, i) => {
    // The library reports a missing dash on the line that lacks it: only those lines are looked at.
    if (line.inBlock || line.content.startsWith("-") || !onLine.has(i)) return;
    // The nearest line above that is indented no deeper: a list item in the same column?
    let k = i - 1;
    while (k >= 0 && ((lines[k]?.inBlock ?? false) || (lines[k]?.indent ?? 0) > line.indent)) k--;
    const item = lines[k];
    if (item === undefined || item.indent !== line.indent || !item.content.startsWith("- ")) return;
    // The first item of that list: the line above it must open the list from a lesser indent (a list
    // written in its key's column is followed by sibling keys in that column, legitimately).
    let first = k;
    while (first > 0) {
      const above = lines[first - 1];
      if (above === undefined || above.inBlock || above.indent > line.indent) {
        first--;
        continue;
      }
      if (above.indent === line.indent && above.content.startsWith("- ")) {
        first--;
        continue;
      }
      break;
    }
    const opener = lines[first - 1];
    if (opener === undefined || opener.indent >= line.indent) return;
    const from = line.start;
    const to = blockEnd(lines, i, source.text.length);
    const firstError = onLine.get(i)?.[0];
    if (firstError === undefined) return;
    const list = /^(?:- +)?([^:#]+?)[ \t]*:/.exec(opener.content)?.[1];
    const at = line.start + line.indent;
    // The line's text, without the carriage return of a CRLF file.
    const lineEnd = source.text[line.end - 1] === "\r" ? line.end - 1 : line.end;
    out.push({
      diagnostic: {
        severity: "error",
        code: "campaign.list-item-dash",
        message: `this line is in the list${list === undefined ? "" : ` \`${list}\``} but does not start with \`- \`, as its items above do`,
        range: rangeAt(source, at, lineEnd),
        hint: `start the item with a dash and a space, in the column of the dashes above: \`- ${line.content.trimEnd()}\``,
      },
      from,
      to,
      firstError,
    });
  });
  return out;
}
