/**
 * docs/codes.md is generated from the code maps in src/diagnostics/codes/*.ts by
 * scripts/gen-codes-doc.mjs; this fails when a code was added or changed without regenerating it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
// @ts-expect-error: a plain ES module script without type declarations
import { parseCodeMap, renderCodesDoc } from "../../scripts/gen-codes-doc.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const render = renderCodesDoc as () => string;
const parse = parseCodeMap as (text: string) => { code: string; meaning: string }[];

describe("docs/codes.md", () => {
  test("is up to date with src/diagnostics/codes", () => {
    const current = readFileSync(join(ROOT, "docs/codes.md"), "utf8");
    expect(current === render(), "docs/codes.md is out of date: run node scripts/gen-codes-doc.mjs").toBe(
      true,
    );
  });

  test("lists every code of every area once", async () => {
    const doc = readFileSync(join(ROOT, "docs/codes.md"), "utf8");
    const dir = join(ROOT, "src/diagnostics/codes");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const mod = (await import(join(dir, file))) as Record<string, Record<string, string>>;
      const map = Object.values(mod).find((v) => typeof v === "object" && v !== null) ?? {};
      const parsed = parse(readFileSync(join(dir, file), "utf8"));
      // The regex reader sees exactly what the module exports, meanings included.
      expect(Object.fromEntries(parsed.map((e) => [e.code, e.meaning]))).toEqual(map);
      for (const code of Object.keys(map)) {
        expect(doc.split(`| \`${code}\` |`).length - 1, code).toBe(1);
      }
    }
  });

  test("shows severities read from the sources", () => {
    const doc = readFileSync(join(ROOT, "docs/codes.md"), "utf8");
    expect(doc).toMatch(/\| `lint\.segment-growth` \| info \|/);
    expect(doc).toMatch(/\| `message\.tag-may-render-empty` \| warning \|/);
    expect(doc).toMatch(/\| `plan\.drift` \| error \|/);
  });
});
