/**
 * The one redactor: masks every trace of a secret (the API key, a webhook signing secret) in text
 * that leaves the program (API errors, the listener's output, reports, the journal, files). A trace
 * is any run of {@link MIN_RUN} or more consecutive characters of a secret, compared without regard
 * to case and across line breaks and other whitespace (`abcd\nefgh` is the run `abcdefgh`) and the
 * escapes `\n`, `\r`, `\t` that JSON puts in their place. So a server that echoes the key
 * upper-cased, only its tail, split over two lines, or inside JSON or HTML, still shows none of it.
 * Pure.
 */

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
  const normalized: string[] = [];
  for (const raw of secrets) {
    if (raw === undefined || raw === null) continue;
    const secret = [...raw.toLowerCase()].filter((c) => !WHITESPACE.test(c)).join("");
    if (secret !== "") normalized.push(secret);
  }
  const cacheKey = normalized.join("\u0000");
  const cached = built.get(cacheKey);
  if (cached !== undefined) return cached;
  const redactor = buildRedactor(normalized);
  if (built.size >= BUILT_MAX) built.clear();
  built.set(cacheKey, redactor);
  return redactor;
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
  const gramHashes = new Set([...grams].map(hashOf));
  const wholeTest = wholes.length === 0 ? undefined : quickTest(wholes);
  const mayHold = (text: string): boolean =>
    (gramHashes.size > 0 && holdsGramHash(text, gramHashes)) ||
    (wholeTest !== undefined && (wholeTest === null || wholeTest.test(text)));
  return (text) => (mayHold(text) ? redactWith(text, grams, wholes) : text);
}

/*
 * The quick test for runs of MIN_RUN: a rolling hash over the same characters the full scan
 * compares (whitespace and `\n`-style escapes skipped, each UTF-16 unit lower-cased), looked up
 * among the hashes of the secrets' runs. One pass, no allocation, whatever the number of secrets
 * (a regular expression of every run of twenty keys cost a quarter of a 20-organization apply).
 * A hash that matches by chance only sends the text to the full scan, which decides.
 */
const HASH_MOD = 2_147_483_647;
const HASH_BASE = 131;
/** HASH_BASE ** (MIN_RUN - 1) mod HASH_MOD: the weight of the unit leaving the window. */
const HASH_TOP = (() => {
  let top = 1;
  for (let i = 1; i < MIN_RUN; i++) top = (top * HASH_BASE) % HASH_MOD;
  return top;
})();

function hashOf(run: string): number {
  let hash = 0;
  for (let i = 0; i < run.length; i++) hash = (hash * HASH_BASE + run.charCodeAt(i)) % HASH_MOD;
  return hash;
}

/** `\s` for one UTF-16 unit, without a regular expression for ASCII. */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return WHITESPACE.test(String.fromCharCode(code));
}

function holdsGramHash(text: string, hashes: ReadonlySet<number>): boolean {
  const window = new Array<number>(MIN_RUN).fill(0);
  let hash = 0;
  let count = 0;
  const push = (code: number): boolean => {
    const slot = count % MIN_RUN;
    if (count >= MIN_RUN)
      hash = (hash - (((window[slot] as number) * HASH_TOP) % HASH_MOD) + HASH_MOD) % HASH_MOD;
    hash = (hash * HASH_BASE + code) % HASH_MOD;
    window[slot] = code;
    count += 1;
    return count >= MIN_RUN && hashes.has(hash);
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) continue;
    if (code === 92 /* \\ */) {
      const next = text.charCodeAt(i + 1);
      if (next === 110 || next === 114 || next === 116 /* n r t */) {
        i += 1;
        continue;
      }
    }
    if (code < 128) {
      if (push(code >= 65 && code <= 90 ? code + 32 : code)) return true;
      continue;
    }
    const lower = (text[i] as string).toLowerCase();
    for (let k = 0; k < lower.length; k++) if (push(lower.charCodeAt(k))) return true;
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

function redactWith(text: string, grams: ReadonlySet<string>, wholes: readonly string[]): string {
  // The text without whitespace and escapes, lower-cased, with each kept character's index in `text`.
  const kept: string[] = [];
  const origin: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (WHITESPACE.test(c)) continue;
    if (c === "\\" && /[nrt]/.test(text[i + 1] ?? "")) {
      i += 1;
      continue;
    }
    kept.push(c.toLowerCase());
    origin.push(i);
  }
  const flat = kept.join("");
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
    !word.test(text[(origin[at + length - 1] as number) + 1] ?? "");
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
    const stop = (origin[end] as number) + 1;
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
