/**
 * The paid-for-by disclaimer a political message may carry, as phrases per language: data. A
 * message has a disclaimer when it holds any of these phrases (in any language: a Spanish message
 * may keep the English legal line) as whole words, whatever the case and accents. Pure.
 */
import { holdsPhrase } from "./wording.js";

export const DISCLAIMER_PHRASES: Readonly<Record<string, readonly string[]>> = {
  en: ["Paid for by", "Authorized by"],
  es: ["Pagado por", "Autorizado por"],
};

/** The first disclaimer phrase `text` holds, or undefined. */
export function disclaimerIn(text: string): string | undefined {
  for (const phrases of Object.values(DISCLAIMER_PHRASES))
    for (const phrase of phrases) if (holdsPhrase(text, phrase)) return phrase;
  return undefined;
}
