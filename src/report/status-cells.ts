/**
 * The cells every status view shares: counts with thousands separators, rates as percentages,
 * money in dollars, the marks for an unknown figure (`?`) and a rate without a denominator (`-`),
 * and the text-cell helpers of the terminal table (control characters made visible, display width,
 * truncation). Pure; the money and rates come in as integers and fractions (`src/status/`).
 */
import type { ProjectFigures } from "../status/figures.js";
import { type Fraction, roundedQuotient, scaled } from "../text/fraction.js";

/** An unknown figure: a project no statistics row lists, or one that could not be read. */
export const UNKNOWN = "?";
/** A rate whose denominator is 0: nothing sent (or delivered) yet. */
export const NO_RATE = "-";

/** 1234567 -> "1,234,567". */
export function groupThousands(n: number): string {
  const digits = String(Math.abs(n));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n < 0 ? `-${grouped}` : grouped;
}

export function countCell(n: number | null): string {
  return n === null ? UNKNOWN : groupThousands(n);
}

/**
 * A rate as a percentage with one decimal (97.4%), rounded half up from the exact fraction.
 * `known`: whether the counts behind it are known (else `?`); a known rate without denominator is `-`.
 */
export function percentCell(f: Fraction | null, known: boolean): string {
  if (!known) return UNKNOWN;
  if (f === null) return NO_RATE;
  const tenths = scaled(f, 3);
  return `${groupThousands(Math.floor(tenths / 10))}.${tenths % 10}%`;
}

/** Dollars from e4, rounded half up to `decimals` (2: cents, 4: the API's precision): "$1,234.56". */
export function dollarCell(e4: number | null, decimals: 2 | 4): string {
  if (e4 === null) return UNKNOWN;
  const units = decimals === 4 ? e4 : roundedQuotient(e4, 100);
  const per = 10 ** decimals;
  return `$${groupThousands(Math.floor(units / per))}.${String(units % per).padStart(decimals, "0")}`;
}

/** The cost per delivered message in dollars with 4 decimals ("$0.0103"), `-` when nothing was delivered. */
export function perDeliveredCell(f: Fraction | null, known: boolean): string {
  if (!known) return UNKNOWN;
  if (f === null) return NO_RATE;
  return dollarCell(scaled(f, 0), 4);
}

/** What names a project in a view: its address, else its live name, else its id. */
export function projectLabel(p: ProjectFigures): string {
  return p.address ?? p.name ?? p.id;
}

export { visibleText } from "./visible-text.js";

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
const WIDE =
  /^(?:\p{Extended_Pictographic}|[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}])/u;

function graphemeWidth(g: string): number {
  return WIDE.test(g) ? 2 : 1;
}

/** Printable ASCII only: each character its own grapheme, one column wide. */
const NARROW_ASCII = /^[\x20-\x7e]*$/;

/** Columns `text` takes on a terminal: one per grapheme, two for wide (CJK, emoji) ones. */
export function displayWidth(text: string): number {
  // Most text is printable ASCII: its width is its length, without segmenting it (the segmenter
  // was most of a live view's redraw, 4 of 6 s of CPU in test/cli/progress-width.test.ts).
  if (NARROW_ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** `text` cut to at most `width` columns, ending in `…` when cut (never inside a grapheme). */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = graphemeWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns, on the right (`left`) or on the left (`right`). */
export function pad(text: string, width: number, align: "left" | "right"): string {
  const fill = " ".repeat(Math.max(0, width - displayWidth(text)));
  return align === "left" ? text + fill : fill + text;
}
