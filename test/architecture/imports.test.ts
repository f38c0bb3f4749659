/**
 * The tree as it stands keeps design.md's "Layout" (issue 33): no import circle anywhere in src/ or
 * cli/ (inside one folder or across folders, type-only and lazy imports included); imports point one
 * way between the folders of src/; the places that do no IO of their own import no Node IO module.
 * The rules are data (rules.ts); the checker is checker.ts, whose own test (checker.test.ts) shows
 * that each kind of break fails it.
 */
import { describe, expect, test } from "vitest";
import { checkArchitecture, folderOf, importEdges, inPlace, isPure } from "./checker.js";
import { RULES } from "./rules.js";
import { readTree } from "./tree.js";

describe("the tree keeps the layout (design.md Layout)", () => {
  const tree = readTree();
  const edges = importEdges(tree);

  test("the scan sees the tree and its imports (a sanity check on the reader)", () => {
    expect(tree.has("src/plan/judge.ts")).toBe(true);
    expect(tree.has("cli/program.ts")).toBe(true);
    expect(edges.some((e) => e.file.startsWith("src/plan/") && e.to?.startsWith("src/campaign/"))).toBe(true);
    expect(edges.some((e) => e.file === "cli/lifecycle/run.ts" && e.to === "cli/program.ts")).toBe(true);
    // Lazy imports are edges too: each registration loads its command when it runs.
    expect(edges.some((e) => e.file === "cli/register/plan.ts" && e.to === "cli/commands/plan.ts")).toBe(
      true,
    );
    expect(edges.some((e) => e.node === "fs" && folderOf(e.file) === "cli")).toBe(true);
  });

  test("every IO place of the rules holds files; the folders issue 33 names are pure", () => {
    const files = [...tree.keys()];
    expect(RULES.ioPlaces.filter((p) => !files.some((file) => inPlace(file, p.place)))).toEqual([]);
    const named = ["plan", "campaign", "message", "text", "forecast", "policy", "apply", "watch", "replies"];
    for (const folder of named) expect(files.some((f) => f.startsWith(`src/${folder}/`))).toBe(true);
    expect(files.filter((f) => named.includes(folderOf(f)) && !isPure(f, RULES))).toEqual([]);
  });

  test("no circle, no import against the layers, no IO in a pure place, nothing unresolved, no stale allowance", () => {
    expect(checkArchitecture(tree, RULES).map((f) => `${f.kind}: ${f.text}`)).toEqual([]);
  });
});
