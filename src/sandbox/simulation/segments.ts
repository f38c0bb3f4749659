/**
 * The sandbox's own segment count (it may not import src/message). GSM-7 when every character is in
 * the GSM 03.38 basic set or its extension table (extension characters count two septets): one
 * segment up to 160 septets, else 153 per segment. Otherwise UCS-2, counted in UTF-16 code units:
 * one segment up to 70, else 67 per segment. The empty text is one segment.
 */

const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
  "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENDED = "^{}\\[~]|€\f";

const basic = new Set(GSM_BASIC);
const extended = new Set(GSM_EXTENDED);

/** The encoding a text is sent in. */
export type SmsEncoding = "gsm7" | "ucs2";

/** Encoding and segment count of `text`. */
export function countSegments(text: string): { encoding: SmsEncoding; segments: number } {
  let septets = 0;
  for (const ch of text) {
    if (basic.has(ch)) septets += 1;
    else if (extended.has(ch)) septets += 2;
    else return { encoding: "ucs2", segments: split(text.length, 70, 67) };
  }
  return { encoding: "gsm7", segments: split(septets, 160, 153) };
}

function split(units: number, single: number, multi: number): number {
  return units <= single ? 1 : Math.ceil(units / multi);
}
