/**
 * Which language variant a live text is, for `import --template`: told by the opt-out wording first
 * (the words a carrier reviewer looks for), then, English or Spanish, by common function words.
 * A text neither rule decides is undecided; the user names its language (`--language ID=TAG`). Pure.
 */
import { OPT_OUT_WORDING } from "../message/opt-out-wording.js";
import { holdsPhrase } from "../message/wording.js";

/** The variant keys import can tell apart by its word lists; opt-out wording may tell any other. */
export type DetectedLanguage = string;

/** English opt-out instructions ("Reply STOP", "Text STOP to end"); the policy data's `en` is the bare keyword. */
const ENGLISH_OPT_OUT =
  /\b(reply|text|txt|send)\s+stop\b|\bstop\s+to\s+(opt[\s-]?out|end|quit|unsubscribe|cancel)\b/i;

const WORDS: Readonly<Record<"en" | "es", ReadonlySet<string>>> = {
  en: new Set(["hi", "hello", "the", "to", "at", "your", "is", "and", "you", "reply", "on", "for", "of", "opt", "out", "vote", "polls", "today", "tomorrow", "day"]),
  es: new Set(["hola", "el", "la", "los", "las", "para", "por", "su", "sus", "de", "del", "que", "en", "es", "y", "no", "recibir", "responde", "votar", "vota", "hoy", "mañana", "día", "elección", "gracias", "usted", "tu"]),
}; // biome-ignore format: word lists

/**
 * The language of `text`, or undefined when neither rule decides. First the opt-out wording: a
 * language's own phrases (src/message/opt-out-wording.ts, the data the policy extends) or English's
 * instruction, when exactly one language's holds; then common words. Merge tags are ignored.
 */
export function detectLanguage(text: string): DetectedLanguage | undefined {
  const byWording = Object.entries(OPT_OUT_WORDING)
    .filter(([language, phrases]) =>
      language === "en" ? ENGLISH_OPT_OUT.test(text) : phrases.some((p) => holdsPhrase(text, p)),
    )
    .map(([language]) => language);
  if (byWording.length === 1) return byWording[0];
  const words = text
    .replace(/\{\{[^}]*\}\}/g, " ")
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w !== "");
  const score = (language: "en" | "es") => words.filter((w) => WORDS[language].has(w)).length;
  const [scoreEn, scoreEs] = [score("en"), score("es")];
  if (scoreEn === scoreEs) return undefined;
  return scoreEn > scoreEs ? "en" : "es";
}
