/**
 * The sandbox's own SMS arithmetic (it shares no code with src/message), used for billing project
 * sends and replies alike. GSM-7 when every character is in the GSM 03.38 basic set or its
 * extension table (extension characters take two septets): one segment up to 160 septets, else 153
 * per segment. Otherwise UCS-2, counted in UTF-16 code units: one segment up to 70, else 67 per
 * segment. The empty text is one segment.
 */

const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/** Characters of the GSM-7 extension table: each takes two septets. */
const GSM_EXTENDED = "^{}\\[~]|€\f";

const BASIC = new Set(Array.from(GSM_BASIC));
const EXTENDED = new Set(Array.from(GSM_EXTENDED));

export function isGsmChar(ch: string): boolean {
  return BASIC.has(ch) || EXTENDED.has(ch);
}

/** Encoding and number of SMS segments of `text`. */
export function segmentsOf(text: string): { encoding: "GSM-7" | "UCS-2"; segments: number } {
  const chars = Array.from(text);
  if (chars.every(isGsmChar)) {
    const septets = chars.reduce((n, ch) => n + (EXTENDED.has(ch) ? 2 : 1), 0);
    return { encoding: "GSM-7", segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
  }
  const units = text.length;
  return { encoding: "UCS-2", segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}
