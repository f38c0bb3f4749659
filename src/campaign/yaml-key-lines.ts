/**
 * A key line written another way (see yaml-slips.ts): `state:draft`, `state = draft`, `name GOTV`,
 * a `//` comment; the finding says how YAML writes a key and its value, or a comment.
 */
import { rangeAt, type SourceText } from "./source-range.js";
import type { Found, Line } from "./yaml-slip-scan.js";
import type { YamlProblem } from "./yaml-tabs.js";

/** The shapes of a key line that YAML does not read as `key: value`, and what to write instead. */
const KEY_SLIPS: readonly {
  readonly pattern: RegExp;
  readonly message: (m: RegExpExecArray) => string;
  readonly hint: (m: RegExpExecArray) => string;
}[] = [
  {
    pattern: /^(\/\/|<!--)/,
    message: (m) => `\`${m[1]}\` does not start a comment in YAML`,
    hint: () => "start a comment with `#`",
  },
  {
    pattern: /^([A-Za-z_][\w-]*):([^\s:].*)$/,
    message: (m) =>
      `\`${m[1]}:${m[2]}\` has no space after the \`:\`, so YAML does not read it as a key and its value`,
    hint: (m) => `write \`${m[1]}: ${m[2]}\`: YAML needs a space after the \`:\` of a key`,
  },
  {
    pattern: /^([A-Za-z_][\w-]*)[ \t]*=[ \t]*(.*)$/,
    message: (m) => `\`${m[1]} =\` does not set a key in YAML`,
    hint: (m) => `write \`${m[1]}: ${m[2]}\`: a key is followed by \`:\` and a space`,
  },
  {
    pattern: /^([A-Za-z_][\w-]*)[ \t]+([^:#]+)$/,
    message: (m) => `\`${m[1]}\` has no \`:\` after it, so YAML does not read it as a key`,
    hint: (m) => `write \`${m[1]}: ${m[2]?.trimEnd()}\``,
  },
];

const KEY_LINE_ERRORS = new Set([
  "MISSING_CHAR",
  "MULTILINE_IMPLICIT_KEY",
  "BLOCK_AS_IMPLICIT_KEY",
  "BAD_INDENT",
]);

export function keyLines(
  source: SourceText,
  lines: readonly Line[],
  onLine: ReadonlyMap<number, readonly YamlProblem[]>,
): Found[] {
  const out: Found[] = [];
  for (const [i, errors] of onLine) {
    const line = lines[i];
    if (line === undefined || line.inBlock) continue;
    const on = errors.filter(
      (e) => KEY_LINE_ERRORS.has(e.code) && e.pos[0] >= line.start && e.pos[0] <= line.end,
    );
    const first = on[0];
    if (first === undefined) continue;
    for (const slip of KEY_SLIPS) {
      const m = slip.pattern.exec(line.content);
      if (m === null) continue;
      const from = line.start;
      const to = line.end;
      out.push({
        diagnostic: {
          severity: "error",
          code: "campaign.yaml-key",
          message: slip.message(m),
          range: rangeAt(source, line.start + line.indent, line.end),
          hint: slip.hint(m),
        },
        from,
        to: to + 1,
        firstError: first,
      });
      break;
    }
  }
  return out;
}
