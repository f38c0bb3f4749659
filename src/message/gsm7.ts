/**
 * The GSM 03.38 (3GPP TS 23.038) default alphabet as SMS gateways use it, with the same table as
 * Twilio's message-segment-calculator: the basic set costs one septet per character, the extension
 * table (form feed and `^{}\[~]|€`) two (an escape and the character). Pure data and lookups.
 */

/** The basic character set, in code order 0x00-0x7F without the escape 0x1B. */
export const GSM7_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ" +
  "ÆæßÉ" +
  " !\"#¤%&'()*+,-./0123456789:;<=>?" +
  "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§" +
  "¿abcdefghijklmnopqrstuvwxyzäöñüà";

/** The extension table: each character is sent as escape + code, two septets. */
export const GSM7_EXTENSION = "\f^{}\\[~]|€";

/**
 * Septets by UTF-16 code unit: 1 basic, 2 extension, 0 not in GSM-7. Every GSM-7 character is one
 * code unit of the BMP, so a surrogate (half of a character outside the BMP) is 0 as it should be.
 * A table instead of sets: counting is done for every message of every project, without allocating.
 */
const SEPTETS = new Uint8Array(0x10000);
for (const char of GSM7_BASIC) SEPTETS[char.charCodeAt(0)] = 1;
for (const char of GSM7_EXTENSION) SEPTETS[char.charCodeAt(0)] = 2;

/**
 * Septets one code point costs in GSM-7: 1 (basic), 2 (extension), or `undefined` when GSM-7 cannot
 * carry it. `char` is one code point (one or two UTF-16 units).
 */
export function gsm7Septets(char: string): 1 | 2 | undefined {
  if (char.length !== 1) return undefined;
  const septets = SEPTETS[char.charCodeAt(0)];
  return septets === 1 || septets === 2 ? septets : undefined;
}

/** Septets of the whole of `text` in GSM-7, or `undefined` when GSM-7 cannot carry some character. */
export function gsm7Length(text: string): number | undefined {
  let septets = 0;
  for (let i = 0; i < text.length; i++) {
    const cost = SEPTETS[text.charCodeAt(i)] ?? 0;
    if (cost === 0) return undefined;
    septets += cost;
  }
  return septets;
}

/** The distinct code points of `text` that GSM-7 cannot carry, in order of first appearance. */
export function nonGsm7Characters(text: string): string[] {
  if (gsm7Length(text) !== undefined) return [];
  const seen = new Set<string>();
  for (const char of text) if (gsm7Septets(char) === undefined) seen.add(char);
  return [...seen];
}
