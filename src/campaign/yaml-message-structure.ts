/**
 * A `message` written as YAML structure (see yaml-slips.ts): lines that start with `- `, or a line
 * holding `: `; the finding says that a message is one text and how to write it (`message: |`).
 */
import { rangeAt, type SourceText } from "./source-range.js";
import { blockEnd, errorsIn, type Found, type Line } from "./yaml-slip-scan.js";
import type { YamlProblem } from "./yaml-tabs.js";

/** How to write a message as one text over several lines. */
export const MESSAGE_BLOCK_HINT =
  "write the message as one text: `message: |` and its lines below it, indented two more spaces (no `- ` before a line); `>-` instead of `|` joins the lines with spaces";

const MESSAGE_KEY = /^(?:- +)?message[ \t]*:(?:[ \t]+(.*))?$/;

export function messageStructure(
  source: SourceText,
  lines: readonly Line[],
  errors: readonly YamlProblem[],
): Found[] {
  const out: Found[] = [];
  lines.forEach((line, i) => {
    if (line.inBlock) return;
    const match = MESSAGE_KEY.exec(line.content);
    if (match === null) return;
    const value = (match[1] ?? "").replace(/[ \t]+#.*$/, "").trim();
    // A block scalar is already text; a quoted value that fails is the unclosed quote's.
    if (/^[|>'"]/.test(value)) return;
    const from = line.start;
    const to = blockEnd(lines, i, source.text.length);
    const first = errorsIn(errors, from, to)[0];
    if (first === undefined) return;
    const body: Line[] = [];
    for (let k = i + 1; k < lines.length && (lines[k]?.start ?? to) < to; k++) {
      const l = lines[k];
      if (l !== undefined) body.push(l);
    }
    const asList = value.startsWith("- ") || body.some((l) => l.content.startsWith("- "));
    const keyColumn =
      line.start + line.indent + (line.content.length - line.content.replace(/^- +/, "").length);
    out.push({
      diagnostic: {
        severity: "error",
        code: "campaign.message-not-text",
        message: asList
          ? "`message` is written as a list, but a message is one text"
          : "the text of `message` is read as YAML keys: a line of it holds `: `",
        range: rangeAt(source, keyColumn, keyColumn + "message".length),
        hint: MESSAGE_BLOCK_HINT,
      },
      from,
      to,
      firstError: first,
    });
  });
  return out;
}
