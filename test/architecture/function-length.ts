/**
 * The function-length rule (issue 33 point 5: "no function over about 80 lines"), as a pure check of
 * a source tree: every function of the places it covers (a declaration, a method, an accessor, a
 * constructor, an arrow or a function expression) spans at most `max` lines, counted from the line
 * of its first token to the line of its last, as an editor shows them (an inner function counts in
 * its outer one's lines too: the outer is what a reader must hold at once). Functions that are still
 * longer are listed by file and name with the length they may not grow past; an allowance nothing
 * needs any more is a finding too, so the list only shrinks.
 */
import type { Node } from "typescript";
import ts from "./typescript.js";

/** A function still allowed to be long: debt, with why and the length it may not exceed. */
export interface LongFunctionAllowance {
  readonly file: string;
  readonly name: string;
  readonly lines: number;
  readonly why: string;
}

/** What the rule covers. Invariant: places are folders ending in `/`. */
export interface FunctionLengthRules {
  readonly places: readonly string[];
  readonly max: number;
  readonly allowed: readonly LongFunctionAllowance[];
}

/** One function of a file: its name (the declared one, else the variable, property or `<anon>`), first line and length. */
export interface FunctionSpan {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

function nameOf(node: Node): string {
  const named = (node as { name?: Node }).name;
  if (named !== undefined && (ts.isIdentifier(named) || ts.isStringLiteral(named))) return named.text;
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return "<anon>";
}

/**
 * The spans of each file, kept by name and text: the test checks the real tree twice (as it stands,
 * then with one function added to one file), and parsing cli/ is most of its time (0.5 s of CPU a
 * pass, issue 35). The spans are not changed by their readers.
 */
const spansOf = new Map<string, readonly FunctionSpan[]>();

/** Every function of one file with its span. */
export function functionSpans(file: string, text: string): readonly FunctionSpan[] {
  const key = `${file}\0${text}`;
  let spans = spansOf.get(key);
  if (spans === undefined) {
    spans = parseSpans(file, text);
    spansOf.set(key, spans);
  }
  return spans;
}

function parseSpans(file: string, text: string): FunctionSpan[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: FunctionSpan[] = [];
  const visit = (node: Node): void => {
    if (ts.isFunctionLike(node) && (node as { body?: Node }).body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ file, name: nameOf(node), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every way the tree breaks the rule: a function too long, one longer than its allowance, an allowance unused. */
export function checkFunctionLengths(
  tree: ReadonlyMap<string, string>,
  rules: FunctionLengthRules,
): string[] {
  const found: string[] = [];
  const used = new Set<LongFunctionAllowance>();
  for (const [file, text] of tree) {
    if (!file.endsWith(".ts") || !rules.places.some((p) => file.startsWith(p))) continue;
    for (const f of functionSpans(file, text)) {
      if (f.lines <= rules.max) continue;
      const allowance = rules.allowed.find((a) => a.file === file && a.name === f.name);
      if (allowance !== undefined) used.add(allowance);
      if (allowance === undefined || f.lines > allowance.lines)
        found.push(
          `${file}:${f.line} ${f.name} has ${f.lines} lines (at most ${allowance?.lines ?? rules.max})`,
        );
    }
  }
  for (const a of rules.allowed)
    if (!used.has(a)) found.push(`allowance no longer needed: ${a.file} ${a.name} (${a.lines} lines)`);
  return found.sort();
}
