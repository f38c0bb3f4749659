/**
 * The opt-out wording accepted per message language: data, which a policy may extend
 * (`rules.opt_out_wording`, docs/policy.md). A message carries opt-out language when it holds one of
 * its language's phrases as whole words, whatever the case and accents (wording.ts). A language with
 * no entry accepts English's: carriers honour the keyword STOP in every language. A message whose
 * language is not declared (a plain project, not a template instance) is in the language its opt-out
 * wording is in (`optOutLanguage`), as import tells a text's language. Pure.
 */

import { own } from "../text/names.js";
import { TextMemo } from "./memo.js";
import { holdsSomePhrase } from "./wording.js";

/** Language tag -> phrases. Invariant: every phrase is non-empty. */
export type OptOutWording = Readonly<Record<string, readonly string[]>>;

/** The built-in phrases. English: the keyword STOP (the rule `lint.opt-out-missing` always had). */
export const OPT_OUT_WORDING: OptOutWording = {
  en: ["STOP"],
  es: [
    "Responde STOP",
    "Responda STOP",
    "Responde STOP para no recibir más",
    "Responde STOP para cancelar",
    "Envía STOP",
    "Envíe STOP",
    "Envía BAJA",
    "Envíe BAJA",
    "Responde BAJA",
  ],
};

/** The base language of a tag (`es-US` -> `es`). */
export function baseLanguage(language: string): string {
  return language.split("-")[0] ?? language;
}

/**
 * The phrases accepted for `language`: its own (by the full tag, then its base language), the
 * policy's `extra` for it, else English's.
 */
export function acceptedOptOutWording(language: string, extra: OptOutWording = NONE): readonly string[] {
  const base = baseLanguage(language);
  const phrases = [
    ...(own(OPT_OUT_WORDING, language) ?? []),
    ...(language === base ? [] : (own(OPT_OUT_WORDING, base) ?? [])),
    ...(own(extra, language) ?? []),
    ...(language === base ? [] : (own(extra, base) ?? [])),
  ];
  return phrases.length > 0 ? phrases : [...(OPT_OUT_WORDING.en ?? []), ...(own(extra, "en") ?? [])];
}

const NONE: OptOutWording = {};

/** Judgements already made, per policy wording (by identity: a run's policy is one object). */
const judged = new WeakMap<OptOutWording, TextMemo<boolean>>();

/**
 * Does `text` carry opt-out language in `language`? Remembered per text (memo.ts): the projects of
 * a campaign share a few messages (a template's variants above all), each judged once.
 */
export function hasOptOutWording(text: string, language: string, extra: OptOutWording = NONE): boolean {
  let memo = judged.get(extra);
  if (memo === undefined) {
    memo = new TextMemo();
    judged.set(extra, memo);
  }
  return memo.get(text, language, () => judgeOptOutWording(text, language, extra));
}

/** `hasOptOutWording`'s answer, computed every time (for callers that remember it themselves). */
export function judgeOptOutWording(text: string, language: string, extra: OptOutWording = NONE): boolean {
  return holdsSomePhrase(text, acceptedOptOutWording(language, extra));
}

/**
 * The language a message is judged in by the opt-out rules (`lint.opt-out-missing`,
 * `require_opt_out_language`): the declared one (a template instance's); else, for a plain project,
 * the first language other than English, built-in then the policy's, whose accepted wording the
 * text holds; else English. So a plain Spanish project that says "Envía BAJA" is judged in Spanish.
 * `holds` judges a text's wording (default `hasOptOutWording`, remembered per text).
 */
export function optOutLanguage(
  text: string,
  declared: string | undefined,
  extra: OptOutWording = NONE,
  holds: (text: string, language: string, extra: OptOutWording) => boolean = hasOptOutWording,
): string {
  if (declared !== undefined) return declared;
  const languages = new Set([...Object.keys(OPT_OUT_WORDING), ...Object.keys(extra)]);
  for (const language of languages)
    if (baseLanguage(language) !== "en" && holds(text, language, extra)) return language;
  return "en";
}
