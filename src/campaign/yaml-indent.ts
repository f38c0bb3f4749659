/**
 * A better diagnostic for the most common YAML slip: a key indented further than the key above it
 * (`id: p1` then ` name: x` one space deeper). The `yaml` library reports it at the line above, as
 * "nested mappings are not allowed in compact mappings"; this finds the key that moved and says by
 * how much. Only findings that explain one of the library's errors are kept. Pure, linear.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { rangeAt, type SourceText } from "./source-range.js";
import type { YamlProblem } from "./yaml-tabs.js";

export interface Misindented {
  readonly diagnostic: Diagnostic;
  /** True for a library error this finding replaces. */
  readonly explains: (error: YamlProblem) => boolean;
}

/** The library errors a misindented key causes. */
const CASCADE = new Set(["BLOCK_AS_IMPLICIT_KEY", "MULTILINE_IMPLICIT_KEY", "BAD_INDENT", "MISSING_CHAR"]);

// Leading spaces, optional `- ` item markers, then a plain or quoted key and `:` (end or blank after).
const KEY_LINE = /^( *)((?:- +)*)([^\s#'"{}[\]&*!|>%@`-][^:#]*?|"[^"]*"|'[^']*')[ \t]*:(?:[ \t]|$)(.*)$/;
const BLOCK_SCALAR = /^[|>][-+0-9]*[ \t]*(?:#.*)?$/;

interface Line {
  readonly start: number;
  readonly end: number;
  readonly indent: number;
  /** Column (0-based) where the line's key starts, after any `- ` markers. */
  readonly keyColumn: number;
  readonly key?: string;
  /** The line ends with a key and no value (or a lone `-`): deeper lines belong to it. */
  readonly opens: boolean;
  /** The value is a block scalar (`|`, `>`): deeper lines are its text. */
  readonly block: boolean;
}

function readLine(text: string, start: number, end: number): Line | undefined {
  const raw = text.slice(start, end).replace(/\r$/, "");
  const trimmed = raw.trimStart();
  if (trimmed === "" || trimmed.startsWith("#")) return undefined;
  const indent = raw.length - trimmed.length;
  const match = KEY_LINE.exec(raw);
  if (match === null) {
    const dash = /^( *)((?:- *)+)$/.exec(raw);
    return { start, end, indent, keyColumn: indent, opens: dash !== null, block: false };
  }
  const markers = match[2] ?? "";
  const value = (match[4] ?? "").replace(/[ \t]+#.*$/, "").trim();
  return {
    start,
    end,
    indent,
    keyColumn: indent + markers.length,
    key: match[3] ?? "",
    opens: value === "",
    block: BLOCK_SCALAR.test(value),
  };
}

export function misindentedKeys(source: SourceText, errors: readonly YamlProblem[]): Misindented[] {
  const cascade = errors.filter((e) => CASCADE.has(e.code));
  if (cascade.length === 0) return [];
  const text = source.text;
  const out: Misindented[] = [];
  let previous: Line | undefined;
  let blockAt: number | undefined;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const line = readLine(text, start, end);
    start = end + 1;
    if (line === undefined) continue;
    if (blockAt !== undefined && line.indent > blockAt) continue;
    blockAt = undefined;
    if (previous?.key !== undefined && line.key !== undefined && !previous.opens) {
      const extra = line.indent - previous.keyColumn;
      if (extra > 0 && line.keyColumn === line.indent) {
        const from = previous.start;
        const to = line.end;
        if (cascade.some((e) => e.pos[0] >= from && e.pos[0] <= to))
          out.push({
            diagnostic: {
              severity: "error",
              code: "campaign.yaml-indent",
              message: `key \`${line.key}\` is indented ${extra} space${extra === 1 ? "" : "s"} more than \`${previous.key}\` on the line above`,
              range: rangeAt(
                source,
                line.start + previous.keyColumn,
                line.start + line.indent + line.key.length,
              ),
              hint: `start \`${line.key}\` in column ${previous.keyColumn + 1}, under \`${previous.key}\`: YAML reads a deeper line as part of the value above`,
            },
            explains: (e) => CASCADE.has(e.code) && e.pos[0] >= from && e.pos[0] <= to,
          });
      }
    }
    if (line.block) blockAt = line.indent;
    previous = line;
  }
  return out;
}
