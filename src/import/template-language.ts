/**
 * Which language variant a live text is, for `import --template`: English or Spanish, told by the
 * opt-out wording first (the words a carrier reviewer looks for), then by common function words.
 * A text neither rule decides is undecided; the user names its language (`--language ID=TAG`). Pure.
 */

/** The variant keys import can tell apart by itself. */
export type DetectedLanguage = "en" | "es";

const OPT_OUT: Readonly<Record<DetectedLanguage, RegExp>> = {
  en: /\b(reply|text|txt|send)\s+stop\b|\bstop\s+to\s+(opt[\s-]?out|end|quit|unsubscribe|cancel)\b/i,
  es: /\b(responde|responda|env[ií]a|env[ií]e|escribe|escriba|contesta|conteste)\s+stop\b|\bstop\s+para\b|\bpara\s+(no\s+recibir|cancelar|darte\s+de\s+baja|darse\s+de\s+baja)\b/i,
};

const WORDS: Readonly<Record<DetectedLanguage, ReadonlySet<string>>> = {
  en: new Set(["hi", "hello", "the", "to", "at", "your", "is", "and", "you", "reply", "on", "for", "of", "opt", "out", "vote", "polls", "today", "tomorrow", "day"]),
  es: new Set(["hola", "el", "la", "los", "las", "para", "por", "su", "sus", "de", "del", "que", "en", "es", "y", "no", "recibir", "responde", "votar", "vota", "hoy", "mañana", "día", "elección", "gracias", "usted", "tu"]),
}; // biome-ignore format: word lists

/** The language of `text`, or undefined when neither rule decides. Merge tags are ignored. */
export function detectLanguage(text: string): DetectedLanguage | undefined {
  const en = OPT_OUT.en.test(text);
  const es = OPT_OUT.es.test(text);
  if (en !== es) return en ? "en" : "es";
  const words = text
    .replace(/\{\{[^}]*\}\}/g, " ")
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w !== "");
  const score = (lang: DetectedLanguage) => words.filter((w) => WORDS[lang].has(w)).length;
  const [scoreEn, scoreEs] = [score("en"), score("es")];
  if (scoreEn === scoreEs) return undefined;
  return scoreEn > scoreEs ? "en" : "es";
}
