/**
 * cli/ keeps its root for the entry points only (issue 33 point 5): the error boundary (`main.ts`),
 * the command tree (`program.ts`) and the version; everything else lives in a folder named for its
 * concern (docs/development.md "Layout"). A file added at the root fails here with its name.
 */
import { describe, expect, test } from "vitest";
import { readTree } from "./tree.js";

/** The only files cli/'s root may hold. */
const ROOT_FILES = ["cli/main.ts", "cli/program.ts", "cli/version.ts"];

/** The files of `files` that sit directly in cli/ and are not entry points. */
function looseAtCliRoot(files: readonly string[]): string[] {
  return files.filter((f) => /^cli\/[^/]+$/.test(f) && !ROOT_FILES.includes(f)).sort();
}

describe("cli/'s root", () => {
  test("holds only main.ts, program.ts and version.ts", () => {
    const files = [...readTree().keys()];
    for (const file of ROOT_FILES) expect(files).toContain(file);
    expect(looseAtCliRoot(files)).toEqual([]);
  });

  test("a file added at the root is named (the check can fail)", () => {
    expect(looseAtCliRoot(["cli/main.ts", "cli/session.ts", "cli/gather/session.ts"])).toEqual([
      "cli/session.ts",
    ]);
  });
});
