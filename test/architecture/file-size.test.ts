/**
 * No hand-written source file in src/ or cli/ over 16 KB (issue 33: small files, one concern each):
 * the rule (file-size.ts) on synthetic trees, on the real tree as it stands, and on the real tree with
 * one file grown past the limit, which must fail.
 */
import { describe, expect, test } from "vitest";
import { checkFileSizes, type FileSizeRules } from "./file-size.js";
import { FILE_SIZE } from "./rules.js";
import { readTree } from "./tree.js";

const rules: FileSizeRules = { places: ["src/", "cli/"], max: 100, allowed: [] };
const text = (bytes: number) => "x".repeat(bytes);

describe("the rule on synthetic trees", () => {
  test("the limit passes, one byte more fails; bytes are counted in UTF-8; generated and data files are exempt", () => {
    const tree = new Map([
      ["src/plan/ok.ts", text(100)],
      ["src/plan/big.ts", text(101)],
      ["cli/accents.ts", "é".repeat(51)],
      ["src/campaign/generated/validate-campaign.ts", text(1000)],
      ["src/jurisdictions/packs/ca.json", text(1000)],
      ["test/elsewhere.ts", text(1000)],
    ]);
    expect(checkFileSizes(tree, rules)).toEqual([
      "cli/accents.ts has 102 bytes (at most 100)",
      "src/plan/big.ts has 101 bytes (at most 100)",
    ]);
  });

  test("an allowance lets one file be large up to its size; it may not grow; an unused one is found", () => {
    const allowed = [
      { file: "cli/big.ts", bytes: 150, why: "test" },
      { file: "cli/gone.ts", bytes: 200, why: "test" },
    ];
    const given = { ...rules, allowed };
    expect(checkFileSizes(new Map([["cli/big.ts", text(150)]]), given)).toEqual([
      "allowance no longer needed: cli/gone.ts (200 bytes)",
    ]);
    expect(checkFileSizes(new Map([["cli/big.ts", text(151)]]), given)).toContain(
      "cli/big.ts has 151 bytes (at most 150)",
    );
  });
});

describe("the real tree", () => {
  const tree = readTree();

  test("as it stands: no hand-written file of src/ or cli/ over 16 KB but those allowed, and no stale allowance", () => {
    expect(checkFileSizes(tree, FILE_SIZE)).toEqual([]);
  });

  test("a file grown past 16 KB fails it", () => {
    const file = "src/plan/judge.ts";
    const mutated = new Map(tree);
    mutated.set(file, `${tree.get(file)}\n// ${text(FILE_SIZE.max)}\n`);
    expect(checkFileSizes(mutated, FILE_SIZE)).toEqual([
      expect.stringMatching(/^src\/plan\/judge\.ts has \d+ bytes \(at most 16384\)$/),
    ]);
  });
});
