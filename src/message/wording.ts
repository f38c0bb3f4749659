/**
 * Finding a phrase in a message the way a reader would: letter case, accents and runs of blanks do
 * not matter (`Responde STOP para no recibir mas`, written in GSM-7 without its accent, is
 * `Responde STOP para no recibir más`), and a phrase only counts as whole words. Pure.
 */
import { itself, memoize } from "./memo.js";

/**
 * `text` lower-cased, without combining accents, with every run of blanks one space; remembered per
 * text (memo.ts): a campaign's projects share a few messages, and every rendering of one is folded
 * once, not once per project and phrase.
 */
export const foldWording: (text: string) => string = memoize(fold, itself);

// biome-ignore lint/suspicious/noControlCharactersInRegex: every ASCII character, controls included
const ASCII = /^[\u0000-\u007F]*$/;

function fold(text: string): string {
  // ASCII text has no decompositions and no marks (NFD and the mark removal leave it as it is),
  // and only ASCII blanks: the same result without ICU's normalization.
  if (ASCII.test(text)) return text.toLowerCase().replace(/\s+/gu, " ").trim();
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim();
}

/** Does `text` hold `phrase` as whole words (see the module's note)? */
export function holdsPhrase(text: string, phrase: string): boolean {
  return foldedHolds(foldWording(text), phrase);
}

/**
 * Does `text` hold any of `phrases` (as `holdsPhrase`)? The text is folded once, and not
 * remembered: for callers that remember the answer per text themselves (lint: message-analysis.ts).
 */
export function holdsSomePhrase(text: string, phrases: readonly string[]): boolean {
  const folded = fold(text);
  return phrases.some((phrase) => foldedHolds(folded, phrase));
}

function foldedHolds(folded: string, phrase: string): boolean {
  const wanted = foldWording(phrase);
  // A phrase of punctuation alone ("." in a policy's list) is no wording: it would hold nearly anywhere.
  if (!/[\p{L}\p{N}]/u.test(wanted)) return false;
  let from = 0;
  for (;;) {
    const at = folded.indexOf(wanted, from);
    if (at < 0) return false;
    const before = folded[at - 1];
    const after = folded[at + wanted.length];
    if (!isWordChar(before) && !isWordChar(after)) return true;
    from = at + 1;
  }
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}_]/u.test(char);
}
