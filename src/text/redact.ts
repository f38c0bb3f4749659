/**
 * The one redactor: masks every trace of a secret (the API key, a webhook signing secret) in text
 * that leaves the program (API errors, the listener's output, reports, the journal, files). A trace
 * is any run of {@link MIN_RUN} or more consecutive characters of a secret, compared without regard
 * to case and across line breaks and other whitespace (`abcd\nefgh` is the run `abcdefgh`) and the
 * escapes `\n`, `\r`, `\t` that JSON puts in their place; a percent-encoded character (`%5F`) is
 * compared as the character it encodes. The secret's common encodings are traces too: its base64
 * and base64url (at each of the three alignments, so the key embedded in a longer encoded text is
 * found), of the secret as given, upper- and lower-cased, and its hex (either case). So a server
 * that echoes the key upper-cased, only its tail, split over two lines, inside JSON or HTML, in
 * base64, hex or percent-encoded, still shows none of it. Pure.
 */
import { Buffer } from "node:buffer";

/** The shortest run of a secret that is masked. */
export const MIN_RUN = 8;

/** What a masked run is replaced with. */
export const MASK = "[redacted]";

/** Text in, text with every trace of the secrets masked. */
export type Redactor = (text: string) => string;

/** Characters skipped when matching: whitespace, and the letter of a `\n`/`\r`/`\t` escape with its backslash. */
const WHITESPACE = /\s/;

/** Redactors already built, by their secrets (normalized, in order): building one costs a pass over every secret. */
const built = new Map<string, Redactor>();

/** At most this many sets of secrets are kept (a process sees a handful: the key, the keys per organization, webhook secrets). */
const BUILT_MAX = 64;

/**
 * A redactor for `secrets` (empty values are ignored; values shorter than {@link MIN_RUN} are
 * matched whole, case-insensitively, and only where they stand alone, not inside a word). With no
 * secret it returns text unchanged. The same secrets give the same redactor, built once.
 */
export function createRedactor(secrets: readonly (string | undefined | null)[]): Redactor {
  const given: string[] = [];
  for (const raw of secrets) {
    if (raw === undefined || raw === null) continue;
    const secret = [...raw].filter((c) => !WHITESPACE.test(c)).join("");
    if (secret !== "") given.push(secret);
  }
  // Keyed by the secrets as given: their encodings depend on their case.
  const cacheKey = given.join("\u0000");
  const cached = built.get(cacheKey);
  if (cached !== undefined) return cached;
  const normalized = given.flatMap((secret) => [secret, ...encodedForms(secret)].map((s) => s.toLowerCase()));
  const redactor = buildRedactor(normalized);
  if (built.size >= BUILT_MAX) built.clear();
  built.set(cacheKey, redactor);
  return redactor;
}

/**
 * The forms a secret of at least {@link MIN_RUN} characters takes when encoded: hex of its UTF-8
 * bytes, and base64 and base64url of the secret, upper- and lower-cased. Base64 writes 3 bytes as
 * 4 characters, so the characters of a secret inside a longer encoded text depend on where it
 * starts among the groups of 3: for each start (skipping 0, 1 or 2 of its bytes), the encoding of
 * its whole groups, which is the same wherever it is embedded. Shorter secrets (no real key) have
 * none: 4 characters of base64 would mask ordinary words.
 */
export function encodedForms(secret: string): string[] {
  if (secret.length < MIN_RUN) return [];
  const forms = new Set<string>();
  for (const variant of new Set([secret, secret.toUpperCase(), secret.toLowerCase()])) {
    const bytes = Buffer.from(variant, "utf8");
    forms.add(bytes.toString("hex"));
    for (const skip of [0, 1, 2]) {
      const whole = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
      forms.add(whole.toString("base64"));
      forms.add(whole.toString("base64url"));
    }
  }
  return [...forms].filter((form) => form.length >= MIN_RUN);
}

function buildRedactor(secrets: readonly string[]): Redactor {
  const grams = new Set<string>();
  const wholes: string[] = [];
  for (const secret of secrets) {
    if (secret.length < MIN_RUN) {
      wholes.push(secret);
      continue;
    }
    for (let i = 0; i + MIN_RUN <= secret.length; i++) grams.add(secret.slice(i, i + MIN_RUN));
  }
  if (grams.size === 0 && wholes.length === 0) return (text) => text;
  const table = gramTable(grams);
  const wholeTest = wholes.length === 0 ? undefined : quickTest(wholes);
  const mayHold = (text: string): boolean =>
    (table !== null && holdsGramHash(text, table)) ||
    (wholeTest !== undefined && (wholeTest === null || wholeTest.test(text)));
  return (text) => (mayHold(text) ? redactWith(text, grams, wholes) : text);
}

/*
 * The quick test for runs of MIN_RUN: a rolling hash over the same characters the full scan
 * compares (whitespace and `\n`-style escapes skipped, `%HH` decoded, each UTF-16 unit lower-cased),
 * looked up among the hashes of the secrets' runs. One pass, no allocation, whatever the number of
 * secrets (a regular expression of every run of twenty keys cost a quarter of a 20-organization
 * apply). The hash of the last MIN_RUN units is `(hash << HASH_SHIFT) ^ unit` for each unit in
 * turn: with MIN_RUN * HASH_SHIFT = 32, a unit pushed MIN_RUN units ago has been shifted out of the
 * 32 bits, so the hash depends on the last MIN_RUN units only, with no window to keep and nothing to
 * subtract (issue 36: a shift and an xor a unit; the polynomial hash before it, which took each
 * leaving unit out of a window of the last ones, cost the listener 2 to 3 times as much a
 * character). Each hash is first looked up in a table of 2^16 bits, and only on a hit among the
 * hashes themselves. A hash that matches by chance only sends the text to the full scan, which
 * decides: the quick test can say "maybe" wrongly (neighbouring units overlap in the hash and the
 * oldest keeps only its low bits, so a few times in a million characters), never "no".
 */
/** Bits each unit is shifted by as the next one comes in. */
const HASH_SHIFT = 32 / MIN_RUN;
/** Bits of a hash that pick its place in the table (2^16 places: 8 KiB a set of secrets). */
const TABLE_BITS = 16;
/** Spreads every bit of a hash into the top TABLE_BITS (the low bits of the hash see only the newest units). */
const TABLE_MIX = 0x85ebca6b;

/** The hashes of the secrets' runs: a bit table (first look) and the set (the decision). */
interface GramTable {
  readonly bits: Uint32Array;
  readonly hashes: ReadonlySet<number>;
}

function gramTable(grams: ReadonlySet<string>): GramTable | null {
  if (grams.size === 0) return null;
  const bits = new Uint32Array(1 << (TABLE_BITS - 5));
  const hashes = new Set<number>();
  for (const gram of grams) {
    const hash = hashOf(gram);
    hashes.add(hash);
    const place = Math.imul(hash, TABLE_MIX) >>> (32 - TABLE_BITS);
    bits[place >>> 5] = (bits[place >>> 5] as number) | (1 << (place & 31));
  }
  return { bits, hashes };
}

/** The quick test's hash of `run` (its last MIN_RUN units count). */
function hashOf(run: string): number {
  let hash = 0;
  for (let i = 0; i < run.length; i++) hash = (hash << HASH_SHIFT) ^ run.charCodeAt(i);
  return hash;
}

/** `\s` for one UTF-16 unit, without a regular expression for ASCII. */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return WHITESPACE.test(String.fromCharCode(code));
}

/** The value of a hex digit's UTF-16 unit, or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * The ASCII character a `%HH` at `i` encodes (lower-cased), or -1 when there is none there. A byte
 * of 0x80 and above is part of a multi-byte character and is compared as written.
 */
function percentAt(text: string, i: number): number {
  if (text.charCodeAt(i) !== 37 /* % */) return -1;
  const high = hexValue(text.charCodeAt(i + 1));
  const low = hexValue(text.charCodeAt(i + 2));
  if (high < 0 || low < 0 || high > 7) return -1;
  const code = high * 16 + low;
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/** {@link ASCII_UNIT}: skipped (whitespace). */
const SKIP = 0xff;
/** {@link ASCII_UNIT}: looked at with what follows (`\\` of an escape, `%` of `%HH`). */
const SPECIAL = 0xfe;
/** How the quick test takes each ASCII unit: {@link SKIP}, {@link SPECIAL}, or the unit as compared (lower-cased). */
const ASCII_UNIT = (() => {
  const table = new Uint8Array(128);
  for (let code = 0; code < 128; code++)
    table[code] = isSpace(code)
      ? SKIP
      : code === 92 || code === 37
        ? SPECIAL
        : code >= 65 && code <= 90
          ? code + 32
          : code;
  return table;
})();

function holdsGramHash(text: string, table: GramTable): boolean {
  const { bits, hashes } = table;
  let hash = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    let code = text.charCodeAt(i);
    let lower: string | null = null;
    if (code < 128) {
      const unit = ASCII_UNIT[code] as number;
      if (unit < 128) code = unit;
      else if (unit === SKIP) continue;
      else if (code === 92 /* \ */) {
        const next = text.charCodeAt(i + 1);
        if (next === 110 || next === 114 || next === 116 /* n r t */) {
          i += 1;
          continue;
        }
      } else {
        const decoded = percentAt(text, i);
        if (decoded >= 0) {
          i += 2;
          if (isSpace(decoded)) continue;
          code = decoded;
        }
      }
    } else {
      if (isSpace(code)) continue;
      // Compared as `flatten` compares it: this UTF-16 unit alone, lower-cased.
      lower = (text[i] as string).toLowerCase();
      code = lower.charCodeAt(0);
    }
    // Each unit of the character as compared (lower-casing may lengthen it: İ), pushed in turn.
    for (let k = 0; ; ) {
      hash = (hash << HASH_SHIFT) ^ code;
      const place = Math.imul(hash, TABLE_MIX) >>> (32 - TABLE_BITS);
      if (((bits[place >>> 5] as number) & (1 << (place & 31))) !== 0 && hashes.has(hash)) return true;
      k += 1;
      if (lower === null || k >= lower.length) break;
      code = lower.charCodeAt(k);
    }
  }
  return false;
}

/**
 * One regular expression that matches wherever the full scan could find a run (each run's
 * characters, any case, with whitespace or `\n`-style escapes between them): used for the secrets
 * shorter than MIN_RUN. Null (always scan) when a secret is not ASCII, where the
 * expression's case folding could differ from `toLowerCase`.
 */
function quickTest(runs: readonly string[]): RegExp | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
  if (runs.some((run) => /[^\x00-\x7f]/.test(run))) return null;
  const gap = "(?:\\s|\\\\[nrt])*";
  const pattern = runs.map((run) =>
    [...run].map((c) => c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")).join(gap),
  );
  return new RegExp(pattern.join("|"), "i");
}

/**
 * The text as the scan compares it: without whitespace and escapes, `%HH` decoded, lower-cased;
 * with where each kept character starts in `text` and where it ends (after its `%HH`).
 */
function flatten(text: string): { flat: string; origin: number[]; originEnd: number[] } {
  const kept: string[] = [];
  const origin: number[] = [];
  const originEnd: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (WHITESPACE.test(c)) continue;
    if (c === "\\" && /[nrt]/.test(text[i + 1] ?? "")) {
      i += 1;
      continue;
    }
    const decoded = percentAt(text, i);
    if (decoded >= 0) {
      i += 2;
      if (isSpace(decoded)) continue;
      kept.push(String.fromCharCode(decoded));
      origin.push(i - 2);
      originEnd.push(i + 1);
      continue;
    }
    // Lower-casing may lengthen a character (İ): each unit of it keeps the character's place.
    for (const unit of c.toLowerCase()) {
      kept.push(unit);
      origin.push(i);
      originEnd.push(i + 1);
    }
  }
  return { flat: kept.join(""), origin, originEnd };
}

function redactWith(text: string, grams: ReadonlySet<string>, wholes: readonly string[]): string {
  const { flat, origin, originEnd } = flatten(text);
  const masked = new Uint8Array(flat.length);
  let any = false;
  const mark = (from: number, length: number): void => {
    masked.fill(1, from, from + length);
    any = true;
  };
  for (let i = 0; i + MIN_RUN <= flat.length; i++)
    if (grams.has(flat.slice(i, i + MIN_RUN))) mark(i, MIN_RUN);
  // A secret shorter than MIN_RUN is no real key (a test's `x`): masked only where it stands alone,
  // since masking it inside words garbles every message and shows the key by where it cuts.
  const word = /[A-Za-z0-9_-]/;
  const alone = (at: number, length: number): boolean =>
    !word.test(text[(origin[at] as number) - 1] ?? "") &&
    !word.test(text[originEnd[at + length - 1] as number] ?? "");
  for (const whole of wholes)
    for (let at = flat.indexOf(whole); at !== -1; at = flat.indexOf(whole, at + 1))
      if (alone(at, whole.length)) mark(at, whole.length);
  if (!any) return text;
  // Each masked run, from its first to its last character in `text` (what lies between them, a
  // line break, goes too), becomes one mask.
  let out = "";
  let from = 0;
  for (let k = 0; k < flat.length; k++) {
    if (masked[k] === 0) continue;
    let end = k;
    while (end + 1 < flat.length && masked[end + 1] === 1) end += 1;
    const start = origin[k] as number;
    const stop = originEnd[end] as number;
    out += text.slice(from, start) + MASK;
    from = stop;
    k = end;
  }
  return out + text.slice(from);
}

/** Every string inside `value` (objects and arrays walked) redacted; other values as they are. */
export function redactDeep(value: unknown, redact: Redactor): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, redact)]));
  return value;
}
