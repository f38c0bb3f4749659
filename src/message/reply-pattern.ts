/**
 * A reply rule's `pattern`, run on a linear-time engine (issue 34): RE2's syntax and semantics
 * through re2js (a pure-JavaScript port of RE2), so that no pattern and no text can make the worker
 * backtrack. What RE2 cannot run (look-around, back-references, JavaScript-only escapes) is refused
 * with the place it starts at; so is a pattern whose compiled program is over the budget
 * ({@link PATTERN_PROGRAM_BUDGET}), which bounds the time of one match at the API's 1,600
 * characters. Case-insensitive (Unicode case folding), tested against the text with accents
 * removed (`foldAccents`). Pure (compiled patterns are remembered).
 */
import { RE2JS, RE2JSException } from "re2js";
import { itself, memoize } from "./memo.js";

/**
 * The most RE2 program instructions the patterns of one project may take together. RE2 matches in
 * time proportional to the text's length times the program's size: at this budget a 1,600-character
 * text is judged in milliseconds even where RE2 falls back from its DFA (bench/replies-patterns.mjs).
 */
export const PATTERN_PROGRAM_BUDGET = 200;

/** Why a pattern is not run. */
export type PatternRefusal = "invalid" | "unsupported" | "too-large";

/**
 * A compiled pattern, or why it is refused with the UTF-16 range of `pattern` at fault
 * (`start === end === 0` with `whole` when no narrower place is known).
 */
export type CompiledPattern =
  | { readonly ok: true; readonly programSize: number; test(text: string): boolean }
  | {
      readonly ok: false;
      readonly refusal: PatternRefusal;
      readonly message: string;
      readonly start: number;
      readonly end: number;
    };

/**
 * `pattern` compiled for RE2 (case-insensitive), or refused: `invalid` when it is no regular
 * expression at all, `unsupported` when JavaScript would accept it but RE2 cannot run it in linear
 * time, `too-large` when its program alone is over {@link PATTERN_PROGRAM_BUDGET}. Remembered
 * (memo.ts): the worker compiles each rule's pattern once, and RE2's DFA cache lives with it.
 */
export const compilePattern: (pattern: string) => CompiledPattern = memoize(compileUncached, itself);

function compileUncached(pattern: string): CompiledPattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    return refused(pattern, error);
  }
  const programSize = re.programSize();
  if (programSize > PATTERN_PROGRAM_BUDGET)
    return {
      ok: false,
      refusal: "too-large",
      message: `its program takes ${programSize} instructions, over the ${PATTERN_PROGRAM_BUDGET} a project's patterns may take together (large counted repetitions such as \`{500}\` multiply its size)`,
      start: 0,
      end: pattern.length,
    };
  return { ok: true, programSize, test: (text) => re.test(text) };
}

/** The constructs RE2 refuses that JavaScript has, by how RE2's error names the fragment. */
function javaScriptOnly(fragment: string): string | null {
  if (fragment.startsWith("(?=") || fragment.startsWith("(?!")) return "a look-ahead";
  if (fragment.startsWith("(?<=") || fragment.startsWith("(?<!")) return "a look-behind";
  if (/^\\[1-9]/.test(fragment) || fragment.startsWith("\\k")) return "a back-reference";
  if (fragment.startsWith("\\u")) return "a `\\u` escape (write `\\x{...}` or the character itself)";
  if (fragment.startsWith("\\c")) return "a `\\c` control escape";
  return null;
}

function refused(pattern: string, error: RE2JSException): CompiledPattern {
  // A syntax error names what is wrong and the fragment at fault; other errors only have a message.
  const syntax = error as RE2JSException & { error?: string; input?: string | null };
  const description = syntax.error ?? "";
  const fragment = syntax.input ?? "";
  const at = placeOf(pattern, fragment, description);
  const construct = javaScriptOnly(fragment);
  const javaScriptAccepts = acceptedByJavaScript(pattern);
  const what =
    description === "" ? error.message : `${description}${fragment === "" ? "" : ` at \`${fragment}\``}`;
  if (javaScriptAccepts)
    return {
      ok: false,
      refusal: "unsupported",
      message: `${construct ?? "a construct"} that the linear-time engine (RE2) cannot run: ${what}`,
      ...at,
    };
  return { ok: false, refusal: "invalid", message: what, ...at };
}

function acceptedByJavaScript(pattern: string): boolean {
  try {
    new RegExp(pattern, "iu");
    return true;
  } catch {
    return false;
  }
}

/**
 * Where RE2's fragment starts in `pattern`: the first place from which the pattern up to the end
 * of the fragment already fails the same way (closing any group left open), else the first
 * occurrence, else the whole pattern.
 */
function placeOf(pattern: string, fragment: string, description: string): { start: number; end: number } {
  if (fragment === "") return { start: 0, end: pattern.length };
  // At most a few places are tried (each compiles a prefix): a long pattern stays quick to check.
  const places: number[] = [];
  for (
    let i = pattern.indexOf(fragment);
    i >= 0 && places.length < PLACES_TRIED;
    i = pattern.indexOf(fragment, i + 1)
  )
    places.push(i);
  if (places.length === 0) return { start: 0, end: pattern.length };
  for (const start of places) {
    const prefix = pattern.slice(0, start + fragment.length);
    if (failsAlike(prefix, fragment, description)) return { start, end: start + fragment.length };
  }
  const start = places[0] ?? 0;
  return { start, end: start + fragment.length };
}

const PLACES_TRIED = 16;

function failsAlike(prefix: string, fragment: string, description: string): boolean {
  const open = Math.max(
    0,
    (prefix.match(/(?<!\\)\(/g) ?? []).length - (prefix.match(/(?<!\\)\)/g) ?? []).length,
  );
  try {
    RE2JS.compile(prefix + ")".repeat(open), RE2JS.CASE_INSENSITIVE);
    return false;
  } catch (error) {
    const e = error as { error?: string; input?: string | null };
    return e.error === description && (e.input ?? "") === fragment;
  }
}
