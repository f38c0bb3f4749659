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

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

/**
 * Septets one code point costs in GSM-7: 1 (basic), 2 (extension), or `undefined` when GSM-7 cannot
 * carry it. `char` is one code point (one or two UTF-16 units).
 */
export function gsm7Septets(char: string): 1 | 2 | undefined {
  if (BASIC.has(char)) return 1;
  if (EXTENSION.has(char)) return 2;
  return undefined;
}

/** The distinct code points of `text` that GSM-7 cannot carry, in order of first appearance. */
export function nonGsm7Characters(text: string): string[] {
  const seen = new Set<string>();
  for (const char of text) if (gsm7Septets(char) === undefined) seen.add(char);
  return [...seen];
}
