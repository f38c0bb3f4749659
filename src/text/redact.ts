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

/**
 * A redactor for `secrets` (empty values are ignored; values shorter than {@link MIN_RUN} are
 * matched whole, case-insensitively, and only where they stand alone, not inside a word). With no secret it returns text unchanged.
 */
export function createRedactor(secrets: readonly (string | undefined | null)[]): Redactor {
  const grams = new Set<string>();
  const wholes: string[] = [];
  for (const raw of secrets) {
    if (raw === undefined || raw === null) continue;
    const secret = [...raw.toLowerCase()].filter((c) => !WHITESPACE.test(c)).join("");
    if (secret === "") continue;
    if (secret.length < MIN_RUN) {
      wholes.push(secret);
      continue;
    }
    for (let i = 0; i + MIN_RUN <= secret.length; i++) grams.add(secret.slice(i, i + MIN_RUN));
  }
  if (grams.size === 0 && wholes.length === 0) return (text) => text;
  const quick = quickTest([...grams, ...wholes]);
  return (text) => (quick !== null && !quick.test(text) ? text : redactWith(text, grams, wholes));
}

/**
 * One regular expression that matches wherever the full scan could find a run (each run's
 * characters, any case, with whitespace or `\n`-style escapes between them): most text holds no
 * trace, and this says so quickly. Null (always scan) when a secret is not ASCII, where the
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
