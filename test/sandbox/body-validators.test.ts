/**
 * The sandbox's request body validators are ajv standalone code the build writes
 * (scripts/gen-validators.mjs: src/sandbox/generated/validate-bodies.ts, from
 * src/sandbox/http/body-schemas.ts), so no sandbox process compiles a schema at run time. This fails
 * when a body schema (or ajv) changed since the last build, and checks that each generated validator
 * judges bodies as ajv compiling its schema at run time with the same options does: the same verdict
 * and the same errors, for valid bodies and for each way a body can be wrong.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { describe, expect, test } from "vitest";
// @ts-expect-error: a plain ES module script without type declarations
import * as generator from "../../scripts/gen-validators.mjs";
import { BODY_VALIDATORS } from "../../src/sandbox/generated/validate-bodies.js";
import { BODY_SCHEMAS, type BodySchemaName } from "../../src/sandbox/http/body-schemas.js";
import { renderedOnce } from "../campaign/rendered-validators.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { BODY_VALIDATORS: SPEC, renderBodyValidators } = generator as {
  BODY_VALIDATORS: { module: string; out: string; options: Record<string, unknown> };
  renderBodyValidators: (schemas: typeof BODY_SCHEMAS) => string;
};
const NAMES = Object.keys(BODY_SCHEMAS).sort() as BodySchemaName[];

/** Each schema compiled at run time, by one ajv with the generator's options and every format. */
function runTimeValidators(): Map<BodySchemaName, ValidateFunction> {
  const ajv = new Ajv2020(SPEC.options);
  formats.default(ajv);
  return new Map(NAMES.map((name) => [name, ajv.compile(BODY_SCHEMAS[name])]));
}

function judged(validate: ValidateFunction, body: unknown): { valid: boolean; errors: ErrorObject[] } {
  const valid = validate(body);
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}

/** A value of each JSON type, and strings that some formats and patterns accept. */
const VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  100_001,
  "",
  "x",
  "2026-12-01T15:00:00Z",
  "+15035550100",
  "https://example.org/hook",
  "a".repeat(2050),
  [],
  ["x"],
  [{ phone: "+15035550100" }],
  {},
  { fail: "x" },
];

/** Bodies for `schema`: none at all, wrong types, unknown keys, and every property given each value. */
function bodiesFor(schema: { readonly properties?: Readonly<Record<string, unknown>> }): unknown[] {
  const keys = Object.keys(schema.properties ?? {});
  const bodies: unknown[] = [{}, [], "x", 7, null, { unknown_key: 1 }];
  for (const value of VALUES) {
    bodies.push(Object.fromEntries(keys.map((key) => [key, value])));
    for (const key of keys) bodies.push({ [key]: value });
  }
  return bodies;
}

describe("the sandbox's request body validators", () => {
  test("are what the generator writes from the body schemas now", () => {
    const current = readFileSync(join(ROOT, SPEC.out), "utf8");
    // What the generator renders from these inputs (the schemas' module and the limits it reads),
    // kept across passes under their hash (../campaign/rendered-validators.ts), never read from
    // the generated file.
    const inputs = { schema: SPEC.module, out: SPEC.out, shared: ["src/contract/limits.ts"] };
    const now = renderedOnce(ROOT, inputs, () => renderBodyValidators(BODY_SCHEMAS));
    expect(current === now, `${SPEC.out} is stale: npm run build`).toBe(true);
    expect(Object.keys(BODY_VALIDATORS).sort()).toEqual(NAMES);
  });

  test("judge every body as ajv compiling the schema at run time does", () => {
    const runTime = runTimeValidators();
    let valid = 0;
    let invalid = 0;
    for (const name of NAMES) {
      const compiled = runTime.get(name) as ValidateFunction;
      for (const body of bodiesFor(BODY_SCHEMAS[name])) {
        const generated = judged(BODY_VALIDATORS[name], body);
        expect(generated, `${name}: ${JSON.stringify(body)}`).toEqual(judged(compiled, body));
        if (generated.valid) valid++;
        else invalid++;
      }
    }
    // Both verdicts were exercised, for many bodies.
    expect(valid).toBeGreaterThan(20);
    expect(invalid).toBeGreaterThan(200);
  });
});
