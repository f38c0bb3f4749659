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
import { CST, Parser } from "yaml";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { positionAt, rangeAt, type SourceText } from "./source-range.js";
import type { YamlProblem } from "./yaml-tabs.js";

/**
 * A finding and the library errors it replaces: those that start in `[from, to)` (offsets into the
 * file's text; `to` is Infinity when the rest of the file is the slip's cascade).
 */
export interface Slip {
  readonly diagnostic: Diagnostic;
  readonly from: number;
  readonly to: number;
}

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

/** How to write a message as one text over several lines. */
export const MESSAGE_BLOCK_HINT =
  "write the message as one text: `message: |` and its lines below it, indented two more spaces (no `- ` before a line); `>-` instead of `|` joins the lines with spaces";

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

/** The errors of `sorted` (by start) that start in `[from, to)`: a binary search for the first. */
function errorsIn(sorted: readonly YamlProblem[], from: number, to: number): YamlProblem[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid]?.pos[0] ?? 0) < from) lo = mid + 1;
    else hi = mid;
  }
  const out: YamlProblem[] = [];
  for (let i = lo; i < sorted.length && (sorted[i]?.pos[0] ?? to) < to; i++) {
    const e = sorted[i];
    if (e !== undefined) out.push(e);
  }
  return out;
}

interface Found extends Slip {
  readonly firstError: YamlProblem;
}

// --- unclosed quotes -------------------------------------------------------------------------------

function unclosedQuote(source: SourceText, errors: readonly YamlProblem[]): Slip | undefined {
  const missing = errors.find((e) => e.code === "MISSING_CHAR" && /closing .?quote/i.test(e.message));
  if (missing === undefined) return undefined;
  let opening: { offset: number; quote: string } | undefined;
  for (const token of new Parser().parse(source.text)) {
    if (opening !== undefined || token.type !== "document") continue;
    CST.visit(token, (item) => {
      for (const t of [item.key, item.value]) {
        if (opening !== undefined || t === null || t === undefined) continue;
        if (t.type !== "double-quoted-scalar" && t.type !== "single-quoted-scalar") continue;
        if (!isClosed(t.source)) opening = { offset: t.offset, quote: t.source[0] ?? '"' };
      }
    });
  }
  if (opening === undefined) return undefined;
  const { offset, quote } = opening;
  const at = positionAt(source, offset);
  const lineEnd = source.text.indexOf("\n", offset);
  const firstLine = source.text.slice(offset, lineEnd < 0 ? source.text.length : lineEnd).replace(/\r$/, "");
  const end = positionAt(source, source.text.length);
  return {
    diagnostic: {
      severity: "error",
      code: "campaign.unclosed-quote",
      message: `this ${quote} opens a quoted text that is never closed: YAML reads the rest of the file, to line ${end.line}, as its text`,
      range: rangeAt(source, offset, offset + 1),
      hint: `add the closing ${quote} where the text ends (on line ${at.line}, the text starts ${show(firstLine)}), or remove this one`,
    },
    // Everything after the opening quote was read as its text: the errors there are its cascade.
    from: offset,
    to: Number.POSITIVE_INFINITY,
  };
}

function show(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed.length > 40 ? `${trimmed.slice(0, 37)}...` : trimmed;
}

function unclosedBracket(source: SourceText, errors: readonly YamlProblem[]): Slip | undefined {
  const missing = errors.find((e) => /end with an? [\]}]/.test(e.message));
  if (missing === undefined) return undefined;
  let opening: { offset: number; bracket: string } | undefined;
  for (const token of new Parser().parse(source.text)) {
    if (opening !== undefined || token.type !== "document") continue;
    CST.visit(token, (item) => {
      const t = item.value;
      if (opening !== undefined || t?.type !== "flow-collection") return;
      const open = t.start.source;
      const close = open === "[" ? "]" : "}";
      if (!t.end.some((e) => e.source === close)) opening = { offset: t.offset, bracket: open };
    });
  }
  if (opening === undefined) return undefined;
  const { offset, bracket } = opening;
  const close = bracket === "[" ? "]" : "}";
  const at = positionAt(source, offset);
  return {
    diagnostic: {
      severity: "error",
      code: "campaign.unclosed-bracket",
      message: `this \`${bracket}\` opens a ${bracket === "[" ? "list" : "map"} that is never closed with \`${close}\``,
      range: rangeAt(source, offset, offset + 1),
      hint: `add \`${close}\` after its last ${bracket === "[" ? "item" : "entry"} (on line ${at.line})`,
    },
    from: offset,
    to: Number.POSITIVE_INFINITY,
  };
}

/** A quoted scalar's source (with its quotes, maybe trailing blanks) ends with its closing quote. */
function isClosed(written: string): boolean {
  const text = written.trimEnd();
  const quote = text[0];
  if (text.length < 2 || text[text.length - 1] !== quote) return false;
  const body = text.slice(1, -1);
  if (quote === '"') return /(?:^|[^\\])(?:\\\\)*$/.test(body);
  // In single quotes `''` is an escaped quote: the run of quotes at the end (with the closing one) is odd.
  const run = /'*$/.exec(body)?.[0].length ?? 0;
  return run % 2 === 0;
}

// --- lines -------------------------------------------------------------------------------------------

interface Line {
  readonly start: number;
  readonly end: number;
  readonly indent: number;
  /** The content after the indentation, without a trailing CR. */
  readonly content: string;
  /** Inside a block scalar (`|`, `>`) opened above: text, not structure. */
  readonly inBlock: boolean;
}

const BLOCK_SCALAR = /:[ \t]+[|>][-+0-9]*[ \t]*(?:#.*)?$/;

function readLines(text: string): Line[] {
  const out: Line[] = [];
  let blockAt: number | undefined;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const raw = text.slice(start, end).replace(/\r$/, "");
    const content = raw.trimStart();
    const indent = raw.length - content.length;
    if (content !== "" && !content.startsWith("#")) {
      const inBlock = blockAt !== undefined && indent > blockAt;
      if (!inBlock) blockAt = undefined;
      out.push({ start, end, indent, content, inBlock });
      if (!inBlock && BLOCK_SCALAR.test(content)) blockAt = indent;
    }
    start = end + 1;
  }
  return out;
}

/** The errors that start on each line (by its index in `lines`), the line's end included. Linear. */
function errorsOnLines(lines: readonly Line[], errors: readonly YamlProblem[]): Map<number, YamlProblem[]> {
  const out = new Map<number, YamlProblem[]>();
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  let i = 0;
  for (const error of sorted) {
    while (i < lines.length && (lines[i]?.end ?? 0) < error.pos[0]) i++;
    const line = lines[i];
    if (line === undefined) break;
    if (error.pos[0] < line.start) continue;
    const list = out.get(i);
    if (list === undefined) out.set(i, [error]);
    else list.push(error);
  }
  return out;
}

/** The offset where the block of `lines[i]` ends: the start of the next line indented no deeper. */
function blockEnd(lines: readonly Line[], i: number, textLength: number): number {
  const line = lines[i];
  if (line === undefined) return textLength;
  for (let k = i + 1; k < lines.length; k++) {
    const next = lines[k];
    if (next !== undefined && !next.inBlock && next.indent <= line.indent) return next.start;
  }
  return textLength;
}

// --- a message written as structure ------------------------------------------------------------------

const MESSAGE_KEY = /^(?:- +)?message[ \t]*:(?:[ \t]+(.*))?$/;

function messageStructure(
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

// --- a list item without its dash ---------------------------------------------------------------------

function missingDashes(
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
    out.push({
      diagnostic: {
        severity: "error",
        code: "campaign.list-item-dash",
        message: `this line is in the list${list === undefined ? "" : ` \`${list}\``} but does not start with \`- \`, as its items above do`,
        range: rangeAt(source, at, line.end),
        hint: `start the item with a dash and a space, in the column of the dashes above: \`- ${line.content.trimEnd()}\``,
      },
      from,
      to,
      firstError,
    });
  });
  return out;
}

// --- a key line written another way -------------------------------------------------------------------

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

function keyLines(
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
