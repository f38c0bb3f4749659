/**
 * The sandbox's own SMS arithmetic (it shares no code with src/message), used for billing project
 * sends and replies alike; its one GSM-7 table.
 *
 * - GSM-7 when every character is in the GSM 03.38 basic set or its extension table (extension
 *   characters take two septets: an escape and the code); otherwise UCS-2, counted in UTF-16 code
 *   units (a character outside the BMP takes two, a surrogate pair).
 * - One segment carries up to 160 septets / 70 units; a longer text is sent in parts of up to 153 /
 *   67 (the rest of each part is the concatenation header).
 * - A part never ends inside a character: an escape pair or a surrogate pair that does not fit in
 *   what is left of a part starts the next one, as carriers do. Like Twilio's message-segment-
 *   calculator (which the planner follows), a whole user-perceived character (grapheme: CR LF, an emoji with its skin tone or joiners, a
 *   letter with combining marks) moves; only one larger than a whole part is split, between code
 *   points. So a text can take one more part than its units divided by 153 / 67.
 * - The empty text is one segment.
 */

const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/** Characters of the GSM-7 extension table: each takes two septets. */
const GSM_EXTENDED = "^{}\\[~]|€\f";

const BASIC = new Set(Array.from(GSM_BASIC));
const EXTENDED = new Set(Array.from(GSM_EXTENDED));

const SINGLE = { "GSM-7": 160, "UCS-2": 70 } as const;
const PART = { "GSM-7": 153, "UCS-2": 67 } as const;

/** Whether GSM-7 carries `ch` (one code point): basic set or extension table. */
export function isGsmChar(ch: string): boolean {
  return BASIC.has(ch) || EXTENDED.has(ch);
}

/** Septets of one GSM-7 character. */
const septets = (ch: string): number => (EXTENDED.has(ch) ? 2 : 1);

/**
 * Encoding and number of SMS segments of `text` (what the sandbox bills). Invariant:
 * `segments >= 1`.
 */
export function segmentsOf(text: string): { encoding: "GSM-7" | "UCS-2"; segments: number } {
  const chars = Array.from(text);
  if (chars.every(isGsmChar)) {
    const total = chars.reduce((n, ch) => n + septets(ch), 0);
    if (total <= SINGLE["GSM-7"]) return { encoding: "GSM-7", segments: 1 };
    return { encoding: "GSM-7", segments: gsmParts(chars) };
  }
  if (text.length <= SINGLE["UCS-2"]) return { encoding: "UCS-2", segments: 1 };
  return { encoding: "UCS-2", segments: ucs2Parts(text, chars) };
}

/** Counts parts of `capacity` units as characters are added: one that does not fit starts the next. */
function packer(capacity: number): { add(cost: number): void; parts(): number } {
  let parts = 1;
  let used = 0;
  return {
    add(cost) {
      if (used + cost > capacity) {
        parts++;
        used = 0;
      }
      used += cost;
    },
    parts: () => parts,
  };
}

/**
 * Parts of text in which every code point is a grapheme of its own but CR LF, which stays together:
 * all GSM-7 text, and the UCS-2 text `ONE_CODE_POINT_GRAPHEMES` matches.
 */
function codePointParts(chars: readonly string[], capacity: number, cost: (ch: string) => number): number {
  const pack = packer(capacity);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? "";
    if (ch === "\r" && chars[i + 1] === "\n") {
      i++;
      pack.add(cost(ch) + cost("\n"));
    } else pack.add(cost(ch));
  }
  return pack.parts();
}

const gsmParts = (chars: readonly string[]): number => codePointParts(chars, PART["GSM-7"], septets);

/**
 * BMP text whose characters never join a neighbour into one grapheme (no combining marks, joiners,
 * variation selectors, surrogates or Hangul jamo): controls, Latin, Greek and Cyrillic letters with
 * precomposed accents, punctuation, currency and letterlike signs. Such text is split by code
 * points, without ICU's segmenter, which costs far more per character.
 */
export const ONE_CODE_POINT_GRAPHEMES: RegExp =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: controls are graphemes of their own
  /^[\u0000-\u02FF\u0370-\u0482\u048A-\u052F\u1E00-\u1FFF\u2010-\u2027\u2030-\u205F\u20A0-\u20BF\u2100-\u214F]*$/;

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** UCS-2 parts: graphemes stay whole; one larger than a part is split between code points. */
function ucs2Parts(text: string, chars: readonly string[]): number {
  const capacity = PART["UCS-2"];
  if (ONE_CODE_POINT_GRAPHEMES.test(text)) return codePointParts(chars, capacity, (ch) => ch.length);
  const pack = packer(capacity);
  for (const { segment } of graphemes.segment(text)) {
    if (segment.length <= capacity) pack.add(segment.length);
    else for (const codePoint of segment) pack.add(codePoint.length);
  }
  return pack.parts();
}
