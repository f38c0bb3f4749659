/**
 * One diagnostic for tabs used as indentation. The `yaml` library reports the tab (TAB_AS_INDENT)
 * and then every error the misread structure causes below it (implicit keys, bad indentation,
 * missing `:`), often ten or more for one tab. This reads the file again with the indenting tabs as
 * spaces: the errors that remain are the file's other errors (reported as usual, at their places in
 * the file as written); the rest were the tab's cascade and are replaced by one error at the first
 * tab. Pure; parses again (at most once per layout, until one leaves no error) only a file that has
 * both a line indented with a tab and a YAML error.
 */
import { type ErrorCode, parseAllDocuments } from "yaml";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { rangeAt, type SourceText } from "./source-range.js";

/**
 * A `yaml` library error, reduced to what diagnostics use. Invariant: `pos` is a `[start, end)` pair
 * of offsets into the text of the file as written.
 */
export interface YamlProblem {
  readonly code: ErrorCode;
  readonly message: string;
  readonly pos: readonly [number, number];
}

/** The tab's diagnostic, and the library's errors that are not its cascade. */
export interface TabCollapse {
  readonly diagnostic: Diagnostic;
  readonly errors: readonly YamlProblem[];
}

/** A line whose leading blanks (and `- ` item markers) hold a tab. Offsets into the written text. */
interface TabLine {
  readonly start: number;
  /** Where the content line above starts (the library reports a line indented too deep there). */
  readonly above?: number;
  /** The leading run of blanks and item markers, as written. */
  readonly prefix: string;
}

/** The content line above a tab line, as re-indented: where it starts, where its key starts, whether it opens a block. */
interface Above {
  readonly indent: number;
  readonly keyColumn: number;
  readonly opens: boolean;
}

/** A way to read the tabs of a line's leading run as spaces: its new leading run. */
type Layout = (prefix: string, above: Above | undefined) => string;

/**
 * The readings tried; the one leaving the fewest errors is taken (ties: the earlier). A tab as 2, 4
 * or 8 spaces (a file indented with tabs throughout), or the line placed like the line above: beside
 * its key, or one level deeper when that line opens a block (one tab typed among spaces).
 */
const LAYOUTS: readonly Layout[] = [
  (prefix) => prefix.replaceAll("\t", "  "),
  (prefix) => prefix.replaceAll("\t", "    "),
  (prefix) => prefix.replaceAll("\t", "        "),
  (prefix, above) => follow(prefix, above, above?.keyColumn ?? 0),
  (prefix, above) => follow(prefix, above, above?.indent ?? 0),
];

function follow(prefix: string, above: Above | undefined, column: number): string {
  const markers = prefix.replace(/^[ \t]*/, "").replaceAll("\t", " ");
  return " ".repeat(column + (above?.opens === true ? 2 : 0)) + markers;
}

// Leading blanks, and item markers followed by blanks: where the library reads indentation.
const LEADING = /^[ \t]*(?:-[ \t]+)*/;
// The end of a line that opens a block: a key without a value, or a block scalar header.
const OPENS = /(?:^|:)[ \t]*(?:[|>][-+0-9]*)?[ \t]*(?:#.*)?$/;

/**
 * Undefined when tabs explain none of `errors`: no line is indented with a tab, or reading the tabs
 * as spaces removes no error and the library saw no TAB_AS_INDENT (a tab inside a block scalar's
 * text is text). Errors about structure (indentation, implicit keys) that remain on a line indented
 * with a tab, or on the line above it, are left out with the cascade: which indentation the tab
 * stood for is a guess, and the tab's diagnostic covers those lines until the tab is gone.
 */
export function collapseTabCascade(
  source: SourceText,
  errors: readonly YamlProblem[],
): TabCollapse | undefined {
  // No error, nothing to explain: the lines are not even scanned (the usual case).
  if (errors.length === 0) return undefined;
  const text = source.text;
  const lines = tabLines(text);
  const first = lines[0];
  if (first === undefined) return undefined;
  let best: readonly YamlProblem[] | undefined;
  for (const layout of LAYOUTS) {
    const remaining = errorsWithLayout(text, layout);
    if (best === undefined || remaining.length < best.length) best = remaining;
    if (best.length === 0) break;
  }
  const firstTab = errors.find((e) => e.code === "TAB_AS_INDENT");
  if (firstTab === undefined && (best?.length ?? 0) >= errors.length) return undefined;
  const at = firstTab === undefined ? first.start + first.prefix.indexOf("\t") : tabAt(text, firstTab.pos[0]);
  const lineOfTab = text.lastIndexOf("\n", at - 1) + 1;
  const more = lines.filter((l) => l.start !== lineOfTab).length;
  const tabLineStarts = new Set(lines.map((l) => l.start));
  const aboveStarts = new Set(lines.flatMap((l) => (l.above === undefined ? [] : [l.above])));
  const cascade = (e: YamlProblem): boolean => {
    const lineStart = text.lastIndexOf("\n", e.pos[0] - 1) + 1;
    return (
      (tabLineStarts.has(lineStart) && CASCADE_ON_LINE.has(e.code)) ||
      (aboveStarts.has(lineStart) && CASCADE_ABOVE.has(e.code))
    );
  };
  return {
    diagnostic: {
      severity: "error",
      code: "campaign.yaml-indent",
      message: `this line is indented with a tab${more > 0 ? `, and so ${more === 1 ? "is 1 more line" : `are ${more} more lines`}` : ""}: YAML allows only spaces for indentation`,
      range: rangeAt(source, at, at + 1),
      hint: `${more > 0 ? "replace the tabs at the start of lines with spaces" : "replace the tab with spaces"} (two per level); most editors can convert indentation to spaces`,
    },
    errors: (best ?? []).filter((e) => !cascade(e)),
  };
}

/** Every line of `text` with its leading run, and whether that run holds a tab. */
function* linesOf(
  text: string,
): Generator<{ readonly start: number; readonly end: number; readonly prefix: string }> {
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    yield { start, end, prefix: LEADING.exec(text.slice(start, end))?.[0] ?? "" };
    start = end + 1;
  }
}

/** Every line whose indentation (or item-marker run) holds a tab, in file order. */
function tabLines(text: string): TabLine[] {
  const out: TabLine[] = [];
  let above: number | undefined;
  for (const line of linesOf(text)) {
    if (line.prefix.includes("\t")) out.push({ ...line, ...(above === undefined ? {} : { above }) });
    const rest = text.slice(line.start + line.prefix.length, line.end).trim();
    if (rest !== "" && !rest.startsWith("#")) above = line.start;
  }
  return out;
}

/** The library errors a line indented too deep causes on the line above it. */
const CASCADE_ABOVE = new Set([
  "BLOCK_AS_IMPLICIT_KEY",
  "MULTILINE_IMPLICIT_KEY",
  "BAD_INDENT",
  "MISSING_CHAR",
]);
/** The library errors about structure that a tab line's unknown indentation causes on that line. */
const CASCADE_ON_LINE = new Set([...CASCADE_ABOVE, "TAB_AS_INDENT", "UNEXPECTED_TOKEN"]);

/** The first tab on the indentation of the line holding `offset`; `offset` itself when there is none. */
function tabAt(text: string, offset: number): number {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const newline = text.indexOf("\n", lineStart);
  const prefix = LEADING.exec(text.slice(lineStart, newline < 0 ? text.length : newline))?.[0] ?? "";
  const tab = prefix.indexOf("\t");
  return tab < 0 ? offset : lineStart + tab;
}

/** Where a re-indented line starts in the new text, its new leading run's end, and the growth so far. */
interface Moved {
  readonly from: number;
  readonly prefixEnd: number;
  readonly line: TabLine;
  readonly shift: number;
}

/** The library's errors for `text` with the tab lines re-indented by `layout`, mapped back. */
function errorsWithLayout(text: string, layout: Layout): YamlProblem[] {
  const parts: string[] = [];
  const moved: Moved[] = [];
  let copied = 0;
  let shift = 0;
  let above: Above | undefined;
  for (const line of linesOf(text)) {
    const rest = text.slice(line.start + line.prefix.length, line.end).replace(/\r$/, "");
    let prefix = line.prefix;
    if (prefix.includes("\t")) {
      prefix = layout(line.prefix, above);
      parts.push(text.slice(copied, line.start), prefix);
      const from = line.start + shift;
      shift += prefix.length - line.prefix.length;
      moved.push({ from, prefixEnd: from + prefix.length, line, shift });
      copied = line.start + line.prefix.length;
    }
    if (rest.trim() !== "" && !rest.startsWith("#"))
      above = {
        indent: prefix.length - prefix.trimStart().length,
        keyColumn: prefix.length,
        opens: OPENS.test(rest),
      };
  }
  parts.push(text.slice(copied));
  const docs = parseAllDocuments(parts.join(""), { prettyErrors: false, uniqueKeys: false });
  const errors = (Array.isArray(docs) ? docs : []).flatMap((d) => d.errors);
  const back = (offset: number): number => {
    let lo = 0;
    let hi = moved.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((moved[mid]?.from ?? 0) <= offset) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const hit = moved[found];
    if (hit === undefined) return offset;
    if (offset < hit.prefixEnd) return hit.line.start + Math.min(offset - hit.from, hit.line.prefix.length);
    return offset - hit.shift;
  };
  return errors
    .filter((e) => e.code !== "DUPLICATE_KEY")
    .map((e) => ({ code: e.code, message: e.message, pos: [back(e.pos[0]), back(e.pos[1])] as const }));
}
