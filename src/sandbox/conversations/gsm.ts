/**
 * Reply text normalization for GSM-7 (the sandbox's own: it shares no code with src/message;
 * segments are counted by `../sms.ts`). Normalization replaces typographic look-alikes with their
 * GSM-7 equivalents, strips accents that GSM-7 lacks (á -> a, but é stays), turns exotic spaces
 * into a space and removes zero-width characters. Whatever still falls outside GSM-7 (emoji, CJK) is kept: that message goes
 * out as UCS-2.
 */
import { isGsmChar } from "../sms.js";

/** The documented replacements (docs/sandbox.md: "Conversations and email"). */
const REPLACEMENTS: Readonly<Record<string, string>> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u2032": "'",
  "\u00B4": "'",
  "`": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u201F": '"',
  "\u2033": '"',
  "\u00AB": '"',
  "\u00BB": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u2026": "...",
  "\u2022": "*",
  "\t": " ",
  "\u00A0": " ",
  "\u2000": " ",
  "\u2001": " ",
  "\u2002": " ",
  "\u2003": " ",
  "\u2004": " ",
  "\u2005": " ",
  "\u2006": " ",
  "\u2007": " ",
  "\u2008": " ",
  "\u2009": " ",
  "\u200A": " ",
  "\u202F": " ",
  "\u205F": " ",
  "\u3000": " ",
  "\u200B": "",
  "\u200C": "",
  "\u200D": "",
  "\u2060": "",
  "\uFEFF": "",
};

/** The text as it will go out: look-alikes replaced, accents GSM-7 lacks stripped. */
export function normalizeForGsm(text: string): string {
  let out = "";
  for (const ch of text) {
    const replaced = REPLACEMENTS[ch];
    if (replaced !== undefined) out += replaced;
    else if (isGsmChar(ch)) out += ch;
    else {
      const base = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
      out += base !== ch && Array.from(base).every(isGsmChar) ? base : ch;
    }
  }
  return out;
}
