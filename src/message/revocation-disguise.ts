/**
 * Revocations written to get past a word match (issue 34): "S-T-O-P", "s t o p", "st.op", Cyrillic
 * "Ѕtop", small capitals "ꜱᴛᴏᴘ", "ST0P", the stop sign 🛑. A person reads each as a revocation; the
 * API flags none of them. Found by, in order:
 *
 * 1. the word as written (`revocationIn`, reply-words.ts): `plain`;
 * 2. the stop sign emoji (U+1F6D1): `emoji`;
 * 3. look-alike characters folded with Unicode's confusables data (the `unhomoglyph` package, built
 *    from confusables.txt) and small capitals folded to their letters (small-capitals.ts, from the
 *    Unicode names); ASCII letters and digits are left as they are: `look-alike`;
 * 4. letters set apart joined: punctuation inside a word dropped ("st.op", "S-T-O-P") and a run of
 *    single letters read as one word ("s t o p"): `letters-apart`;
 * 5. digits and `$ @` standing for letters inside a word ("ST0P", "5TOP", "qu1t"): `digits`.
 *
 * Each is `certain` when the revocation word is a whole word of the text so read. A run of single
 * letters that only contains one ("a t t e n d" holds "end") is not certain: the worker does not
 * answer such an inbound and lists it as `unmatched`, for a person. Pure; linear in the text.
 */
import confusables from "unhomoglyph/data.json" with { type: "json" };
import { foldText, revocationIn } from "./reply-words.js";
import { SMALL_CAPITALS } from "./small-capitals.js";

/** How a revocation was written. */
export type RevocationDisguise = "plain" | "emoji" | "look-alike" | "letters-apart" | "digits";

/** A revocation found in a text. `certain: false`: only possibly one (then listed for a person). */
export interface RevocationFound {
  readonly word: string;
  readonly how: RevocationDisguise;
  readonly certain: boolean;
}

/** The stop sign emoji, a revocation on its own. */
export const STOP_SIGN = "\u{1F6D1}";

/** Digits and symbols read as letters inside a word (`1` reads as `i` or as `l`: both are tried). */
const STAND_INS: Readonly<Record<string, string>> = {
  "0": "o",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "9": "g",
  $: "s",
  "@": "a",
};

/** Unicode's confusables (confusables.txt), one source code point to its prototype. */
const CONFUSABLES: Readonly<Record<string, string>> = confusables;

/** Where the text, read some way, contains a revocation word; null when no reading does. */
export function revocationDisguised(
  text: string,
  words: readonly { readonly word: string }[],
): RevocationFound | null {
  const plain = revocationIn(text, words);
  if (plain !== null) return { word: plain, how: "plain", certain: true };
  if (text.includes(STOP_SIGN)) return { word: STOP_SIGN, how: "emoji", certain: true };
  const folded = words.map((w) => {
    const as = foldText(foldLookAlikes(w.word));
    return { word: w.word, as, joined: as.replace(/ /g, "") };
  });
  // A reading holds a word as whole words; a reading with letters joined may hold a phrase joined too.
  const whole = (reading: string, joinedToo: boolean): string | null => {
    const padded = ` ${foldText(reading)} `;
    const hit = folded.find(
      (w) => w.as !== "" && (padded.includes(` ${w.as} `) || (joinedToo && padded.includes(` ${w.joined} `))),
    );
    return hit?.word ?? null;
  };
  const skeleton = foldLookAlikes(text);
  const lookAlike = whole(skeleton, false);
  if (lookAlike !== null) return { word: lookAlike, how: "look-alike", certain: true };
  const joined = joinLettersApart(skeleton);
  const apart = whole(joined, true);
  if (apart !== null) return { word: apart, how: "letters-apart", certain: true };
  for (const reading of [skeleton, joined])
    for (const variant of standInReadings(reading)) {
      const digits = whole(variant, true);
      if (digits !== null) return { word: digits, how: "digits", certain: true };
    }
  const inRun = wordInLetterRun(skeleton, folded);
  return inRun === null ? null : { word: inRun, how: "letters-apart", certain: false };
}

/**
 * The text with every character that is not an ASCII letter or digit folded: accents and
 * compatibility forms (NFKD: full-width, mathematical, circled letters), then Unicode's confusables
 * (Cyrillic Ѕ -> S, Greek Ο -> O, Cherokee Ꮪ -> S), then small capitals (ᴛ -> t); lower case.
 */
export function foldLookAlikes(text: string): string {
  let out = "";
  for (const char of text) {
    if (/[A-Za-z0-9]/.test(char)) {
      out += char.toLowerCase();
      continue;
    }
    out += foldOne(char);
  }
  return out;
}

function foldOne(char: string): string {
  let out = "";
  for (const c of stripMarks(char)) {
    if (/[A-Za-z0-9]/.test(c)) {
      out += c.toLowerCase();
      continue;
    }
    const prototype = stripMarks(CONFUSABLES[c] ?? c);
    for (const p of prototype) out += SMALL_CAPITALS.get(p) ?? SMALL_CAPITALS.get(c) ?? p.toLowerCase();
  }
  return out;
}

function stripMarks(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}+/gu, "");
}

/**
 * Letters set apart, joined: punctuation or symbols between two letters or digits, with no space
 * ("st.op", "S-T-O-P", "S*T*O*P"), are dropped; then every run of two or more single letters or
 * digits separated by spaces or punctuation ("s t o p", "S . T . O . P") becomes one word.
 */
export function joinLettersApart(text: string): string {
  const tight = text.replace(/(?<=[\p{L}\p{N}])[^\p{L}\p{N}\s]+(?=[\p{L}\p{N}])/gu, "");
  return tight.replace(
    /(?<![\p{L}\p{N}])[\p{L}\p{N}](?:[^\p{L}\p{N}]+[\p{L}\p{N}](?![\p{L}\p{N}]))+/gu,
    (run) => run.replace(/[^\p{L}\p{N}]+/gu, ""),
  );
}

/**
 * The readings of `text` with digits and `$ @` inside a word (one that has letters too) read as
 * letters: two, one for each letter `1` may stand for; none when no word mixes them. Token by token,
 * no regular expression over the text.
 */
function standInReadings(text: string): string[] {
  const tokens = text.split(/[^\p{L}\p{N}$@]+/u);
  const mixed = (t: string) => /\p{L}/u.test(t) && /[0-9$@]/.test(t);
  if (!tokens.some(mixed)) return [];
  return ["i", "l"].map((one) =>
    tokens
      .map((t) => (mixed(t) ? [...t].map((c) => (c === "1" ? one : (STAND_INS[c] ?? c))).join("") : t))
      .join(" "),
  );
}

/** A revocation word inside (not the whole of) a run of three or more single letters. */
function wordInLetterRun(
  text: string,
  words: readonly { readonly word: string; readonly joined: string }[],
): string | null {
  const runs =
    text
      .match(/(?<![\p{L}\p{N}])\p{L}(?:[^\p{L}\p{N}]+\p{L}(?![\p{L}\p{N}])){2,}/gu)
      ?.map((r) => r.replace(/[^\p{L}]+/gu, "")) ?? [];
  for (const run of runs)
    for (const w of words) if (w.joined.length >= 3 && run.includes(w.joined)) return w.word;
  return null;
}
