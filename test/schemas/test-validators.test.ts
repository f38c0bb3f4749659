/**
 * The tests' schema checks (test/helpers/schemas.ts) load each validator from ajv standalone code
 * cached on disk. The cache can never serve a stale validator: its name changes with the schema's
 * text and with every shared schema's; and the cached function judges documents exactly as
 * `compileReportSchema` (what the tool itself runs) does, errors included.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, test } from "vitest";
import { compileReportSchema } from "../../src/report/report-schema-ajv.js";
import { type ShapeOptions, shapeCacheName, shapeValidator } from "../helpers/cached-validator.js";
import { cacheKey, type SchemaName, validator } from "../helpers/schemas.js";

const read = (url: URL): string => readFileSync(url, "utf8");

describe("the tests' cached schema validators", () => {
  test("the cache name changes when the schema or a shared schema it may refer to changes", () => {
    const key = cacheKey("error-result");
    expect(cacheKey("error-result")).toBe(key);
    expect(key).toMatch(/^error-result-[0-9a-f]{24}\.cjs$/);
    const edited = (file: string) => (url: URL) =>
      url.pathname.endsWith(`/${file}`) ? `${read(url)} ` : read(url);
    expect(cacheKey("error-result", edited("error-result.schema.json"))).not.toBe(key);
    expect(cacheKey("error-result", edited("diagnostic.schema.json"))).not.toBe(key);
    expect(cacheKey("error-result", edited("email.schema.json"))).not.toBe(key);
    // Another schema, another name.
    expect(cacheKey("plan")).not.toBe(key);
  });

  const diagnostic = {
    severity: "error",
    code: "campaign.schema",
    message: "m",
    range: null,
    hint: null,
    related: [],
  };
  const valid = { format_version: 1, error: true, diagnostics: [diagnostic] };
  // A fresh compile costs 30 to 400 ms a schema: two small ones, one with references to a shared
  // schema, the other with formats.
  const fresh = new Map<SchemaName, ValidateFunction>();
  const documents: [string, SchemaName, unknown, boolean][] = [
    ["a valid error document", "error-result", valid, true],
    ["an unknown key", "error-result", { ...valid, extra: 1 }, false],
    [
      "no error among the diagnostics",
      "error-result",
      { ...valid, diagnostics: [{ ...diagnostic, severity: "warning" }] },
      false,
    ],
    [
      "a bad code (the shared diagnostic schema's pattern)",
      "error-result",
      { ...valid, diagnostics: [{ ...diagnostic, code: "Not A Code" }] },
      false,
    ],
    [
      "a results line with a bad date (a format)",
      "results-snapshot",
      { format_version: 1, at: "yesterday" },
      false,
    ],
  ];

  test.each(documents)(
    "%s: the cached validator and a fresh compile agree, errors included",
    (_, name, document, ok) => {
      let compiled = fresh.get(name);
      if (compiled === undefined) {
        compiled = compileReportSchema(
          JSON.parse(read(new URL(`../../schemas/${name}.schema.json`, import.meta.url))) as Record<
            string,
            unknown
          >,
        );
        fresh.set(name, compiled);
      }
      const cached = validator(name);
      expect(cached(document)).toBe(ok);
      expect(compiled(document)).toBe(ok);
      expect(cached.errors ?? null).toEqual(compiled.errors ?? null);
    },
  );
});

describe("the tests' cached shape validators (contract shapes, segment vectors)", () => {
  const shape = {
    type: "object",
    required: ["id", "at"],
    properties: { id: { type: "string", minLength: 2 }, at: { type: "string", format: "date-time" } },
    additionalProperties: false,
  };
  const options: ShapeOptions = { ajv: { allErrors: true, strict: false }, formats: true };

  test("the cache name changes with the schema and with the options", () => {
    const name = shapeCacheName("t", shape, options);
    expect(name).toMatch(/^t-[0-9a-f]{24}\.cjs$/);
    expect(shapeCacheName("t", structuredClone(shape), options)).toBe(name);
    const edited = { ...shape, required: ["id"] };
    expect(shapeCacheName("t", edited, options)).not.toBe(name);
    expect(shapeCacheName("t", shape, { ...options, formats: false })).not.toBe(name);
    expect(shapeCacheName("t", shape, { ...options, ajv: { allErrors: false, strict: false } })).not.toBe(
      name,
    );
  });

  test.each([
    ["valid", { id: "ab", at: "2026-11-03T12:00:00Z" }, true],
    ["a format broken", { id: "ab", at: "tomorrow" }, false],
    ["two errors at once (allErrors)", { id: "a", at: "2026-11-03T12:00:00Z", extra: 1 }, false],
  ] as const)("%s: the cached validator and a fresh compile agree, errors included", (_, document, ok) => {
    const ajv = new Ajv2020(options.ajv);
    addFormats.default(ajv);
    const fresh = ajv.compile(shape);
    const cached = shapeValidator("test-shape", shape, options);
    expect(shapeValidator("test-shape", shape, options)).toBe(cached);
    expect(cached(document)).toBe(ok);
    expect(fresh(document)).toBe(ok);
    expect(cached.errors ?? null).toEqual(fresh.errors ?? null);
  });

  test("strict and without formats (as the segment vectors' schema): the cached validator and a fresh compile agree", () => {
    const strict: ShapeOptions = { ajv: { allErrors: true, strict: true }, formats: false };
    const plain = { ...shape, properties: { id: shape.properties.id, at: { type: "string" } } };
    const fresh = new Ajv2020(strict.ajv).compile(plain);
    const cached = shapeValidator("test-shape", plain, strict);
    for (const document of [{ id: "ab", at: "x" }, { id: "a", at: 1 }, {}]) {
      expect(cached(document)).toBe(fresh(document));
      expect(cached.errors ?? null).toEqual(fresh.errors ?? null);
    }
    expect(cached({ id: "a", at: 1 })).toBe(false);
  });
});
