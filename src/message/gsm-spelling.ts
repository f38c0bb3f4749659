/**
 * The GSM-7 spelling of characters that GSM-7 cannot carry but that have a plain equivalent in it:
 * the typographic punctuation word processors and phones put in (curly quotes, dashes, the
 * ellipsis, special spaces), and letters whose accent GSM-7 lacks (`á` -> `a`; `é`, `ñ`, `ü` and the
 * others GSM-7 has keep theirs). Emoji and other scripts have none. Pure data and lookups.
 */
import { gsm7Length, gsm7Septets } from "./gsm7.js";

/** Punctuation and spaces, by the character; each value is GSM-7 text. */
const PUNCTUATION: Readonly<Record<string, string>> = {
  "\u2018": "'", // ‘ left single quotation mark
  "\u2019": "'", // ’ right single quotation mark (the curly apostrophe)
  "\u201A": "'", // ‚ single low-9 quotation mark
  "\u201B": "'", // ‛ single high-reversed-9 quotation mark
  "\u2032": "'", // ′ prime
  "\u201C": '"', // “ left double quotation mark
  "\u201D": '"', // ” right double quotation mark
  "\u201E": '"', // „ double low-9 quotation mark
  "\u201F": '"', // ‟ double high-reversed-9 quotation mark
  "\u2033": '"', // ″ double prime
  "\u00AB": '"', // « left-pointing double angle quotation mark
  "\u00BB": '"', // » right-pointing double angle quotation mark
  "\u2010": "-", // ‐ hyphen
  "\u2011": "-", // ‑ non-breaking hyphen
  "\u2012": "-", // ‒ figure dash
  "\u2013": "-", // – en dash
  "\u2014": "-", // — em dash
  "\u2015": "-", // ― horizontal bar
  "\u2212": "-", // − minus sign
  "\u2026": "...", // … horizontal ellipsis
  "\u00A0": " ", // no-break space
  "\u2002": " ", // en space
  "\u2003": " ", // em space
  "\u2009": " ", // thin space
  "\u202F": " ", // narrow no-break space
  "\u2022": "-", // • bullet
  "\u00B4": "'", // ´ acute accent
  "\u02BC": "'", // ʼ modifier letter apostrophe
};

/**
 * The GSM-7 text to write instead of `char` (one code point), with what kind of change it is, or
 * undefined when there is none (an emoji, a letter of another script). Letters lose their accent
 * (canonical decomposition, combining marks dropped) only when what is left is GSM-7.
 */
export function gsmSpelling(
  char: string,
): { readonly text: string; readonly kind: "punctuation" | "accent" } | undefined {
  const punctuation = PUNCTUATION[char];
  if (punctuation !== undefined) return { text: punctuation, kind: "punctuation" };
  if (gsm7Septets(char) !== undefined) return undefined;
  const plain = char.normalize("NFD").replace(/\p{M}+/gu, "");
  if (plain !== char && plain.length > 0 && gsm7Length(plain) !== undefined)
    return { text: plain, kind: "accent" };
  return undefined;
}
