/**
 * examples/.reference/annotated.yaml uses every key of schemas/campaign.schema.json, validates
 * clean, and stays out of the example campaign that `plan --sandbox examples/` reads.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parseDocument } from "yaml";
import { runCli } from "../helpers/run-cli.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const FILE = "examples/.reference/annotated.yaml";

/** Every property name declared anywhere in a JSON Schema. */
function propertyNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) propertyNames(s, out);
  else if (typeof schema === "object" && schema !== null) {
    const props = (schema as { properties?: unknown }).properties;
    if (typeof props === "object" && props !== null) for (const k of Object.keys(props)) out.add(k);
    for (const v of Object.values(schema)) propertyNames(v, out);
  }
  return out;
}

/** Every mapping key used in a YAML document, at any depth. */
function keysUsed(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) keysUsed(n, out);
  else if (typeof node === "object" && node !== null)
    for (const [k, v] of Object.entries(node)) {
      out.add(k);
      keysUsed(v, out);
    }
  return out;
}

describe("the annotated campaign file", () => {
  const text = readFileSync(join(ROOT, FILE), "utf8");

  test("uses every key of the campaign file schema", () => {
    const schema = JSON.parse(readFileSync(join(ROOT, "schemas/campaign.schema.json"), "utf8")) as unknown;
    const names = propertyNames(schema);
    expect(names.size).toBeGreaterThan(30);
    const used = keysUsed(parseDocument(text).toJS());
    expect([...names].filter((n) => !used.has(n)).sort()).toEqual([]);
  });

  test("comments every key of the format where it first appears", () => {
    const schema = JSON.parse(readFileSync(join(ROOT, "schemas/campaign.schema.json"), "utf8")) as unknown;
    const names = propertyNames(schema);
    const lines = text.split("\n");
    const explained = new Set<string>();
    const uncommented: string[] = [];
    lines.forEach((line, i) => {
      const key = /^\s*(?:- )?([a-z_]+):/.exec(line)?.[1];
      if (key === undefined || !names.has(key) || explained.has(key)) return;
      explained.add(key);
      if (!/^\s*#/.test(lines[i - 1] ?? "")) uncommented.push(`${i + 1}: ${line.trim()}`);
    });
    expect(uncommented).toEqual([]);
  });

  test("validates with no error and no warning", async () => {
    const result = await runCli(["validate", FILE, "--strict"], { cwd: ROOT });
    expect(result.stdout).toContain("1 file, 4 projects: 0 errors, 0 warnings");
    expect(result.code).toBe(0);
  });

  test("is not read as part of the example campaign", async () => {
    const result = await runCli(["validate", "examples/", "--json"], { cwd: ROOT });
    const doc = JSON.parse(result.stdout) as { files: { path: string }[] };
    expect(doc.files.map((f) => f.path)).not.toContain(FILE);
    expect(doc.files.length).toBeGreaterThan(0);
  });
});
