/**
 * The words of inbound texts, as reply rules read them (issue 28): folding (case- and
 * accent-insensitive, punctuation as spaces), whole-word phrase matching, and the revocation words
 * that make an inbound an opt-out. Shared by the campaign files' checks (a rule that could match an
 * opt-out is an error), the policy (which may add words) and the replies worker. A rule's pattern
 * is reply-pattern.ts's. Pure.
 */

/**
 * Revocation words and phrases per language, as data: an inbound that contains one as a whole word
 * (after {@link foldText}) is an opt-out and is never answered by a rule. A policy may add words
 * (`replies.opt_out_words`), never remove one. Written folded already (lower case, no accents).
 */
export const DEFAULT_REVOCATION_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: [
    "stop",
    "stopall",
    "stop all",
    "quit",
    "end",
    "revoke",
    "opt out",
    "optout",
    "cancel",
    "unsubscribe",
    "remove me",
    "do not text",
    "dont text",
    // an apostrophe is punctuation (a space once folded), as the API's GSM normalization keeps it
    "don't text",
  ],
  es: [
    "no mas",
    "alto",
    "parar",
    "cancelar",
    "baja",
    "darme de baja",
    "no me escribas",
    "no me envies",
    "basta",
  ],
};

/**
 * Folds a text for matching: NFKD, combining marks and invisible format characters (zero-width
 * joiners and spaces, soft hyphens: `S\u200dTOP` is STOP; the API's GSM normalization drops them
 * too) removed (á -> a, ñ -> n), lower case, and every
 * run of characters that are neither letters nor digits (punctuation, emoji, spaces, ¿ ¡) made one
 * space; no leading or trailing space. Invariant: `foldText(foldText(t)) === foldText(t)`.
 */
export function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\p{M}\p{Cf}]+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * Whether the folded `phrase` occurs in the folded `text` as whole words (`vote` is in "where do I
 * vote?" but not in "voters"). An empty phrase matches nothing. Both are folded here.
 */
export function hasPhrase(text: string, phrase: string): boolean {
  const p = foldText(phrase);
  if (p === "") return false;
  return ` ${foldText(text)} `.includes(` ${p} `);
}

/** Every revocation word of every language, folded, the defaults first, then `extra` (a policy's). */
export function revocationWords(
  extra: Readonly<Record<string, readonly string[]>> = {},
): readonly { readonly language: string; readonly word: string }[] {
  const out: { language: string; word: string }[] = [];
  const seen = new Set<string>();
  for (const source of [DEFAULT_REVOCATION_WORDS, extra])
    for (const [language, words] of Object.entries(source))
      for (const w of words) {
        const word = foldText(w);
        if (word === "" || seen.has(word)) continue;
        seen.add(word);
        out.push({ language, word });
      }
  return out;
}

/** The first revocation word `text` contains as whole words, or null. */
export function revocationIn(text: string, words: readonly { readonly word: string }[]): string | null {
  const folded = ` ${foldText(text)} `;
  for (const { word } of words) if (folded.includes(` ${word} `)) return word;
  return null;
}

/** The text with accents removed (NFKD, combining marks dropped), case and punctuation kept. */
export function foldAccents(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .normalize("NFC");
}
