/**
 * Folding a text for phrase search (src/message/wording.ts): ASCII text takes a path without ICU's
 * normalization, which must fold exactly as the full path; a text folded once for several phrases
 * (`holdsSomePhrase`) answers as each phrase's own search.
 */
import { describe, expect, it } from "vitest";
import { OPT_OUT_WORDING } from "../../src/message/opt-out-wording.js";
import { foldWording, holdsPhrase, holdsSomePhrase } from "../../src/message/wording.js";

/** The fold as written before the ASCII path: normalize, drop marks, lower-case, one blank. */
const fullFold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim();

const ASCII = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join("");

const TEXTS = [
  ASCII,
  `  ${ASCII}\t\n\v\f\r ${ASCII.split("").reverse().join("")}  `,
  "Reply STOP to opt out",
  "Reply\tSTOP\r\nto   opt\u000bout\f",
  "Responde STOP para no recibir más",
  "Responde STOP para no recibir mas",
  "ENVÍA BAJA",
  "Envi\u0301a baja", // a combining accent
  "Vote 🗳️ Tuesday\u00A0STOP\u2003now", // non-ASCII blanks
  "İSTANBUL \u212A STOP", // capital I with dot, the Kelvin sign
  "",
];

describe("folding for phrase search", () => {
  it("folds ASCII text as the full fold does, every ASCII character included", () => {
    for (const text of TEXTS) expect(foldWording(text)).toBe(fullFold(text));
    for (let i = 0; i < 128; i++) {
      const text = `a${String.fromCharCode(i)}B ${String.fromCharCode(i)}`;
      expect(foldWording(text)).toBe(fullFold(text));
    }
  });

  it("answers for several phrases as each phrase's own search", () => {
    const phraseLists = [
      ...Object.values(OPT_OUT_WORDING),
      ["STOP", "stop now", "."],
      ["recibir más", "BAJA"],
      [],
    ];
    let held = 0;
    for (const text of TEXTS)
      for (const phrases of phraseLists) {
        const each = phrases.some((p) => holdsPhrase(text, p));
        expect(holdsSomePhrase(text, phrases)).toBe(each);
        if (each) held += 1;
      }
    expect(held).toBeGreaterThan(10);
  });
});
