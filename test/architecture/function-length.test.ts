/**
 * No function in cli/ over about 80 lines (issue 33 point 5): the rule (function-length.ts) on
 * synthetic files, on the real tree as it stands, and on the real tree with one long function added
 * to a command, which must fail.
 */
import { describe, expect, test } from "vitest";
import { checkFunctionLengths, type FunctionLengthRules, functionSpans } from "./function-length.js";
import { FUNCTION_LENGTH } from "./rules.js";
import { readTree } from "./tree.js";

/** A function declaration spanning `lines` lines (its header and closing brace included). */
const fn = (name: string, lines: number) =>
  `export function ${name}(): number {\n${"  let x = 1;\n".repeat(lines - 3)}  return 1;\n}\n`;

const rules: FunctionLengthRules = { places: ["cli/"], max: 80, allowed: [] };

describe("the rule on synthetic files", () => {
  test("80 lines pass, 81 fail; every kind of function counts, by its name", () => {
    expect(functionSpans("cli/a.ts", fn("short", 80)).map((s) => [s.name, s.lines])).toEqual([["short", 80]]);
    const arrow = `export const go = async () => {\n${"  await 1;\n".repeat(80)}};\n`;
    const method = `class C {\n  run() {\n${"    this.x = 1;\n".repeat(80)}  }\n}\n`;
    const tree = new Map([
      ["cli/ok.ts", fn("short", 80)],
      ["cli/long.ts", fn("long", 81)],
      ["cli/arrow.ts", arrow],
      ["cli/method.ts", method],
      ["src/plan/other.ts", fn("elsewhere", 200)],
    ]);
    expect(checkFunctionLengths(tree, rules)).toEqual([
      "cli/arrow.ts:1 go has 82 lines (at most 80)",
      "cli/long.ts:1 long has 81 lines (at most 80)",
      "cli/method.ts:2 run has 82 lines (at most 80)",
    ]);
  });

  test("an allowance lets one function be long up to its length; it may not grow; an unused one is found", () => {
    const allowed = [
      { file: "cli/long.ts", name: "long", lines: 90, why: "test" },
      { file: "cli/gone.ts", name: "gone", lines: 100, why: "test" },
    ];
    const given = { ...rules, allowed };
    expect(checkFunctionLengths(new Map([["cli/long.ts", fn("long", 90)]]), given)).toEqual([
      "allowance no longer needed: cli/gone.ts gone (100 lines)",
    ]);
    expect(checkFunctionLengths(new Map([["cli/long.ts", fn("long", 91)]]), given)).toContain(
      "cli/long.ts:1 long has 91 lines (at most 90)",
    );
  });
});

describe("the real tree", () => {
  const tree = readTree();

  test("as it stands: no function of cli/ over 80 lines but those allowed, and no stale allowance", () => {
    expect(checkFunctionLengths(tree, FUNCTION_LENGTH)).toEqual([]);
  });

  test("a command with a function of 81 lines fails it", () => {
    const file = "cli/commands/plan.ts";
    const mutated = new Map(tree);
    mutated.set(file, `${tree.get(file)}\n${fn("grown", 81)}`);
    expect(checkFunctionLengths(mutated, FUNCTION_LENGTH)).toEqual([
      expect.stringMatching(/^cli\/commands\/plan\.ts:\d+ grown has 81 lines \(at most 80\)$/),
    ]);
  });
});
