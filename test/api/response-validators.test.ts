/**
 * The client's answer validators are ajv standalone code the build writes (scripts/gen-validators.mjs:
 * src/api/generated/validate-responses.ts, from src/api/response-schemas.ts). This fails when a
 * response schema (or ajv) changed since the last build. (That the sandbox's answers fit them is
 * what every test over the sandbox shows: each reads them through the client.)
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
// @ts-expect-error: a plain ES module script without type declarations
import * as generator from "../../scripts/gen-validators.mjs";
import { RESPONSE_VALIDATORS } from "../../src/api/generated/validate-responses.js";
import { RESPONSE_SCHEMAS } from "../../src/api/response-schemas.js";
import { renderedOnce } from "../campaign/rendered-validators.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { RESPONSE_VALIDATORS: SPEC, renderSchemaSet } = generator as {
  RESPONSE_VALIDATORS: { module: string; out: string };
  renderSchemaSet: (set: unknown, schemas: typeof RESPONSE_SCHEMAS) => string;
};

test("the answer validators are what the generator writes from the response schemas now", () => {
  const current = readFileSync(join(ROOT, SPEC.out), "utf8");
  const inputs = { schema: SPEC.module, out: SPEC.out, shared: ["src/contract/limits.ts"] };
  const now = renderedOnce(ROOT, inputs, () => renderSchemaSet(SPEC, RESPONSE_SCHEMAS));
  expect(current === now, `${SPEC.out} is stale: npm run build`).toBe(true);
  expect(Object.keys(RESPONSE_VALIDATORS).sort()).toEqual(Object.keys(RESPONSE_SCHEMAS).sort());
});
