/**
 * The example fixture's load made by the build (scripts/after-build.mjs writes
 * dist/src/sandbox/generated/example-fixture.json; src/sandbox/fixture/built-example.ts reads it), so
 * that a `--sandbox` start does not parse and check the 40 KB examples/sandbox.yaml: it is the load
 * the sources make of the example's text now (a stale one fails here), and the built loader gives
 * it for that very text only.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { loadFixtureFile } from "../../src/sandbox/fixture/load.js";
import type { FixtureLoad } from "../../src/sandbox/fixture/types.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const EXAMPLE = join(ROOT, "examples/sandbox.yaml");

type BuiltExample = typeof import("../../src/sandbox/fixture/built-example.js");

describe("the example fixture's load made by the build", () => {
  test("is the example's text and the load the sources make of it now", () => {
    const built = JSON.parse(
      readFileSync(join(ROOT, "dist/src/sandbox/generated/example-fixture.json"), "utf8"),
    ) as { text: string; load: FixtureLoad };
    expect(built.text === readFileSync(EXAMPLE, "utf8"), "stale: npm run build").toBe(true);
    const now = loadFixtureFile("examples/sandbox.yaml");
    expect(now.ok).toBe(true);
    expect(built.load).toEqual(now);
  });

  test("is given by the built loader for that very text only", async () => {
    const loader = (await import(
      pathToFileURL(join(ROOT, "dist/src/sandbox/fixture/built-example.js")).href
    )) as BuiltExample;
    const text = readFileSync(EXAMPLE, "utf8");
    const load = loader.builtExampleLoad(text);
    expect(load?.ok).toBe(true);
    expect(load).toEqual(loadFixtureFile("examples/sandbox.yaml"));
    for (const other of [`${text}\n`, text.slice(0, -1), text.replace("version: 1", "version: 2"), ""])
      expect(loader.builtExampleLoad(other)).toBeUndefined();
  });
});
