/**
 * SMS encoding and segment arithmetic. Pure.
 *
 * - GSM-7 when every code point is in the GSM 03.38 alphabet (`gsm7.ts`); otherwise UCS-2, counted in
 *   UTF-16 code units (an emoji outside the BMP takes two).
 * - One segment carries 160 septets / 70 units; a multi-part message carries 153 / 67 per segment
 *   (the rest is the concatenation header).
 * - A split never breaks an escape pair (GSM-7) or a surrogate pair (UCS-2): like Twilio's
 *   message-segment-calculator, a whole grapheme (user-perceived character) that does not fit in
 *   what is left of a segment moves to the next one. Only a grapheme larger than a whole segment is
 *   split, at code point boundaries.
 * - The empty message counts as one segment, as the calculator does.
 */
import { gsm7Length, nonGsm7Characters } from "./gsm7.js";
import { itself, memoize } from "./memo.js";

export type Encoding = "GSM-7" | "UCS-2";

export const SINGLE_SEGMENT_CAPACITY = { "GSM-7": 160, "UCS-2": 70 } as const satisfies Record<
  Encoding,
  number
>;
export const MULTI_SEGMENT_CAPACITY = { "GSM-7": 153, "UCS-2": 67 } as const satisfies Record<
  Encoding,
  number
>;

/**
 * What an SMS body costs. Invariants: `units` is septets for GSM-7 and UTF-16 code units for UCS-2;
 * `segments >= 1` and `segments === segmentTexts.length`; the segment texts concatenate to the text;
 * `nonGsmCharacters` is empty exactly when `encoding` is `GSM-7`.
 */
export interface SegmentInfo {
  /** User-perceived characters (grapheme clusters). */
  readonly characters: number;
  readonly encoding: Encoding;
  readonly units: number;
  readonly segments: number;
  /** Units each segment can carry at this segment count (160/70 for one, else 153/67). */
  readonly unitsPerSegment: number;
  /** The distinct characters that forced UCS-2, in order of first appearance. */
  readonly nonGsmCharacters: readonly string[];
  readonly segmentTexts: readonly string[];
}

/** Made on first use: loading ICU's break rules costs about 10 ms, which most runs never need. */
let graphemes: Intl.Segmenter | undefined;
function graphemeSegmenter(): Intl.Segmenter {
  graphemes ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  return graphemes;
}

/**
 * Grapheme clusters of `text`. GSM-7 text, and text in scripts without combining characters
 * (`SIMPLE_SCRIPT`), has no multi-code-point clusters except CR LF, so it is split by code points
 * without ICU's segmenter, which dominates the cost of validating large campaigns; other text
 * (emoji, combining marks, other scripts) uses the segmenter.
 */
function clustersOf(text: string, encoding: Encoding): string[] {
  switch (encoding) {
    case "UCS-2":
      return SIMPLE_SCRIPT.test(text)
        ? codePointClusters(text)
        : Array.from(graphemeSegmenter().segment(text), (s) => s.segment);
    case "GSM-7":
      return codePointClusters(text);
  }
}

/**
 * Text in which every code point is a grapheme of its own (but CR LF): controls, Latin, Greek and
 * Cyrillic letters with precomposed accents (`Đặng`), general punctuation and currency signs, with
 * no combining marks, joiners, variation selectors or characters outside the BMP.
 */
const SIMPLE_SCRIPT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: controls (tab, newline) are graphemes of their own, so they belong to the simple set
  /^[\u0000-\u02FF\u0370-\u0482\u048A-\u052F\u1E00-\u1FFF\u2010-\u2027\u2030-\u205F\u20A0-\u20BF\u2100-\u214F]*$/;

/** Code points as clusters, CR LF kept together. */
function codePointClusters(text: string): string[] {
  const out: string[] = [];
  for (const char of text) {
    if (char === "\n" && out[out.length - 1] === "\r") out[out.length - 1] = "\r\n";
    else out.push(char);
  }
  return out;
}

function unitCost(text: string, encoding: Encoding): number {
  switch (encoding) {
    case "UCS-2":
      return text.length;
    case "GSM-7": {
      // GSM-7 is only chosen for text it carries whole, and every piece of such text is GSM-7.
      const septets = gsm7Length(text);
      if (septets === undefined) throw new Error("bug: GSM-7 units of text GSM-7 cannot carry");
      return septets;
    }
  }
}

/** What `text` costs as an SMS (see SegmentInfo); remembered per text (memo.ts). */
export const analyzeSegments: (text: string) => SegmentInfo = memoize(segmentInfo, itself);

/**
 * What `text` costs as an SMS, computed every time: for callers that remember the result
 * themselves (lint, once per message text: src/message/message-analysis.ts), where a memo by text
 * would only miss on distinct texts.
 */
export function segmentInfo(text: string): SegmentInfo {
  const nonGsmCharacters = nonGsm7Characters(text);
  const encoding: Encoding = nonGsmCharacters.length === 0 ? "GSM-7" : "UCS-2";
  const units = unitCost(text, encoding);
  const single = SINGLE_SEGMENT_CAPACITY[encoding];
  if (units <= single) {
    return {
      characters: characterCount(text, encoding),
      encoding,
      units,
      segments: 1,
      unitsPerSegment: single,
      nonGsmCharacters,
      segmentTexts: [text],
    };
  }
  const clusters = clustersOf(text, encoding);
  const capacity = MULTI_SEGMENT_CAPACITY[encoding];
  const segmentTexts = split(clusters, encoding, capacity);
  return {
    characters: clusters.length,
    encoding,
    units,
    segments: segmentTexts.length,
    unitsPerSegment: capacity,
    nonGsmCharacters,
    segmentTexts,
  };
}

/** The number of clusters `clustersOf` would return, without building them for GSM-7 text. */
function characterCount(text: string, encoding: Encoding): number {
  switch (encoding) {
    case "UCS-2":
      return clustersOf(text, encoding).length;
    case "GSM-7": {
      // GSM-7 text is all in the BMP: one UTF-16 unit per character, CR LF counted once.
      let count = text.length;
      for (let i = 1; i < text.length; i++)
        if (text.charCodeAt(i) === 10 && text.charCodeAt(i - 1) === 13) count--;
      return count;
    }
  }
}

function split(clusters: readonly string[], encoding: Encoding, capacity: number): string[] {
  const out: string[] = [];
  let current = "";
  let used = 0;
  const push = (piece: string, cost: number): void => {
    if (used + cost > capacity) {
      out.push(current);
      current = "";
      used = 0;
    }
    current += piece;
    used += cost;
  };
  for (const cluster of clusters) {
    const cost = unitCost(cluster, encoding);
    if (cost <= capacity) push(cluster, cost);
    else for (const char of cluster) push(char, unitCost(char, encoding));
  }
  out.push(current);
  return out;
}
