/**
 * How report schemas (plan, apply report, status, forecast, ...: JSON Schema 2020-12) are compiled
 * when they are compiled at run time: by tools and tests that check a document against its schema
 * (test/helpers/schemas.ts). The saved plan that `apply PLANFILE` reads and the apply report that
 * `validateApplyResult` checks are checked by validators generated at build time with these same
 * options (src/report/generated/validate-plan.ts and validate-apply-result.ts, scripts/gen-validators.mjs).
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type CodeOptions, type ValidateFunction } from "ajv/dist/2020.js";
// ajv-formats is CommonJS: under NodeNext its default import is the module object (see campaign/schema.ts).
import formats from "ajv-formats";

export const PLAN_SCHEMA_URL = new URL("../../schemas/plan.schema.json", import.meta.url);

/** The parsed plan schema document (for tests and tools). */
export function planSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(PLAN_SCHEMA_URL, "utf8")) as Record<string, unknown>;
}

/**
 * Schemas that other report schemas refer to, by file name (`diagnostic.schema.json#/$defs/...`):
 * the one diagnostic shape and code pattern (every report), the apply report's definitions (the
 * journal's lines) and the policy file's rules (the plan's policy in force). No schema has an `$id`:
 * a reference resolves beside the schema that makes it, here as in any validator reading the files.
 */
export const SHARED_SCHEMA_URLS: readonly URL[] = [
  new URL("../../schemas/diagnostic.schema.json", import.meta.url),
  new URL("../../schemas/apply-result.schema.json", import.meta.url),
  new URL("../../schemas/policy.schema.json", import.meta.url),
  new URL("../../schemas/forecast.schema.json", import.meta.url),
  new URL("../../schemas/email.schema.json", import.meta.url),
  new URL("../../schemas/experiment-result.schema.json", import.meta.url),
];

/**
 * The ajv options every report schema is checked with: all errors, strict. strictRequired off: the
 * if/then invariants (`block` iff blocked) require keys that the conditional subschema itself does
 * not define (the action's own `properties` do).
 */
export const REPORT_SCHEMA_OPTIONS = {
  allErrors: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
} as const;

/** The formats report schemas check. */
export const REPORT_SCHEMA_FORMATS = ["date-time", "uri"] as const;

/**
 * The ajv that checks report schemas (JSON Schema 2020-12, {@link REPORT_SCHEMA_OPTIONS}, the
 * {@link REPORT_SCHEMA_FORMATS} formats, the shared schemas known by their file names). `code` is
 * passed to ajv as is (the tests ask for `{ source: true }` to keep compiled validators as code).
 */
export function reportSchemaAjv(code: CodeOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({ ...REPORT_SCHEMA_OPTIONS, code });
  formats.default(ajv, [...REPORT_SCHEMA_FORMATS]);
  for (const url of SHARED_SCHEMA_URLS) {
    const shared = JSON.parse(readFileSync(url, "utf8")) as Record<string, unknown>;
    ajv.addSchema(shared, url.pathname.slice(url.pathname.lastIndexOf("/") + 1));
  }
  return ajv;
}

/** Compiles a report schema (JSON Schema 2020-12) the way every report schema is checked ({@link reportSchemaAjv}). */
export function compileReportSchema(schema: Record<string, unknown>): ValidateFunction {
  return reportSchemaAjv().compile(schema);
}
