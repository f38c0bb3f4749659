/**
 * An unclosed quote or bracket (see yaml-slips.ts): the library reads the rest of the file as the
 * text or collection and reports the end of the file; these point at the quote or bracket that
 * opens it. The CST is read again only when the library reports one unclosed.
 */
import { CST, Parser } from "yaml";
import { positionAt, rangeAt, type SourceText } from "./source-range.js";
import type { Slip } from "./yaml-slip-scan.js";
import type { YamlProblem } from "./yaml-tabs.js";

export function unclosedQuote(source: SourceText, errors: readonly YamlProblem[]): Slip | undefined {
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
      // Found: the walk stops here, before it descends (50,000 unclosed `[` would overflow the stack).
      return opening === undefined ? undefined : CST.visit.BREAK;
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

export function unclosedBracket(source: SourceText, errors: readonly YamlProblem[]): Slip | undefined {
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
      return opening === undefined ? undefined : CST.visit.BREAK;
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
