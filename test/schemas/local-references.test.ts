/**
 * Every schema resolves with the files of `schemas/` alone, and names no URL to fetch (issue 35,
 * point 8): no `$id` (a validator resolves references against it, and an `https://` one on a domain
 * nobody here owns would be fetched), every `$ref` either inside its schema or a sibling file's name,
 * and `$schema` only the 2020-12 meta-schema every validator carries built in. Checked three ways:
 * by scanning; by resolving each reference as check-jsonschema does (against the `$id`, else the
 * file's own location) to a file here; and by compiling every schema with ajv whose `loadSchema`
 * fails the test if anything must be fetched, then validating documents campaignctl produced.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";

const DIR = fileURLToPath(new URL("../../schemas/", import.meta.url));
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const META = "https://json-schema.org/draft/2020-12/schema";
const files = readdirSync(DIR).filter((f) => f.endsWith(".schema.json"));
const schemas = new Map(files.map((f) => [f, JSON.parse(readFileSync(join(DIR, f), "utf8")) as unknown]));

/** Every string-valued `key` in a JSON value, with its JSON pointer. */
function stringsAt(value: unknown, key: string, at = ""): { at: string; value: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => stringsAt(v, key, `${at}/${i}`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(k === key && typeof v === "string" ? [{ at: `${at}/${k}`, value: v }] : []),
    ...stringsAt(v, key, `${at}/${k}`),
  ]);
}

/** The value at a JSON pointer (`/$defs/x`), or undefined. */
function pointed(document: unknown, pointer: string): unknown {
  let node = document;
  for (const raw of pointer.split("/").slice(1)) {
    const step = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[step] : undefined;
  }
  return node;
}

describe("schemas resolve locally", () => {
  test("there are schemas to check", () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  test.each(files)("%s: no $id, $schema the 2020-12 meta-schema, no campaignctl URL", (file) => {
    const schema = schemas.get(file);
    expect(stringsAt(schema, "$id")).toEqual([]);
    expect((schema as { $schema?: unknown }).$schema).toBe(META);
    expect(readFileSync(join(DIR, file), "utf8")).not.toMatch(/campaignctl\.dev/);
  });

  test.each(files)("%s: each $ref resolves, as check-jsonschema resolves it, to a file here", (file) => {
    const schema = schemas.get(file) as { $id?: string };
    // check-jsonschema's base: the schema's $id when it has one, else where it was read from.
    const base = schema.$id ?? pathToFileURL(join(DIR, file)).href;
    for (const ref of stringsAt(schema, "$ref")) {
      const target = new URL(ref.value, base);
      expect(target.protocol, `${file}${ref.at}: ${ref.value} resolves to ${target.href}`).toBe("file:");
      const path = fileURLToPath(target);
      expect(existsSync(path), `${file}${ref.at}: ${path}`).toBe(true);
      const document = JSON.parse(readFileSync(path, "utf8")) as unknown;
      const pointer = decodeURIComponent(target.hash.slice(1));
      expect(pointed(document, pointer), `${file}${ref.at}: ${ref.value}`).toBeDefined();
    }
  });

  test("ajv compiles every schema from these files alone and validates produced documents", async () => {
    const fetched: string[] = [];
    const ajv = new Ajv2020({
      allErrors: true,
      strict: true,
      strictRequired: false,
      allowUnionTypes: true,
      // Without ajv's optimising pass over the code it generates (a third of the compile time): what
      // is resolved, and so what must be fetched, is the same; only the code's shape differs.
      code: { optimize: false },
      loadSchema: async (uri) => {
        fetched.push(uri);
        throw new Error(`a schema asked to fetch ${uri}`);
      },
    });
    formats.default(ajv);
    for (const [file, schema] of schemas) ajv.addSchema(schema as object, file);
    const compiled = new Map<string, (data: unknown) => boolean>();
    for (const [file, schema] of schemas) compiled.set(file, await ajv.compileAsync(schema as object));
    expect(fetched).toEqual([]);

    const produced: [string, string, unknown][] = [
      ["plan.schema.json", "test/golden/plan.json", json("test/golden/plan.json")],
      ["apply-result.schema.json", "test/golden/apply.json", json("test/golden/apply.json")],
      ["apply-result.schema.json", "test/golden/apply-refused.json", json("test/golden/apply-refused.json")],
      ["campaign.schema.json", "examples/gotv.yaml", yaml("examples/gotv.yaml")],
      ["campaign.schema.json", "examples/early-vote.yaml", yaml("examples/early-vote.yaml")],
      ["policy.schema.json", "examples/campaignctl.policy.yaml", yaml("examples/campaignctl.policy.yaml")],
      ["fixture.schema.json", "examples/sandbox.yaml", yaml("examples/sandbox.yaml")],
    ];
    for (const [file, path, document] of produced) {
      const validate = compiled.get(file);
      expect(validate?.(document), `${path} against ${file}`).toBe(true);
    }
  });

  test("the examples' editor modelines name schemas beside them, not URLs", () => {
    const modeline = /^# yaml-language-server: \$schema=(\S+)$/m;
    for (const name of [
      "gotv.yaml",
      "early-vote.yaml",
      "volunteers.yaml",
      "campaignctl.policy.yaml",
      "sandbox.yaml",
    ]) {
      const reference = modeline.exec(readFileSync(join(ROOT, "examples", name), "utf8"))?.[1];
      expect(reference, name).toMatch(/^\.\.\/schemas\/[a-z-]+\.schema\.json$/);
      expect(existsSync(join(ROOT, "examples", reference ?? "")), name).toBe(true);
    }
  });
});

function json(path: string): unknown {
  return JSON.parse(readFileSync(join(ROOT, path), "utf8"));
}

function yaml(path: string): unknown {
  return parse(readFileSync(join(ROOT, path), "utf8"));
}
