/**
 * The JSON Schemas of `schemas/`, compiled as the tool compiles its report schemas (ajv 2020-12,
 * strict, formats checked, `diagnostic.schema.json` known by its `$id`), for the tests.
 */
import { readFileSync } from "node:fs";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { compileReportSchema } from "../../src/report/plan-schema.js";

/** A schema of `schemas/` that describes a document the CLI prints or writes. */
export type SchemaName =
  | "validate-result"
  | "preview-result"
  | "plan"
  | "apply-result"
  | "approval"
  | "import-result"
  | "sandbox-info"
  | "status-result"
  | "version-result"
  | "error-result"
  | "journal-event"
  | "replies-plan"
  | "replies-run-line"
  | "email-row-result"
  | "snapshot"
  | "results-result"
  | "results-record-result"
  | "results-snapshot";

const compiled = new Map<SchemaName, ValidateFunction>();

function validator(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (validate === undefined) {
    const url = new URL(`../../schemas/${name}.schema.json`, import.meta.url);
    validate = compileReportSchema(JSON.parse(readFileSync(url, "utf8")) as Record<string, unknown>);
    compiled.set(name, validate);
  }
  return validate;
}

/** The ajv errors of `document` against `schemas/<name>.schema.json`, as `path message` lines; [] when valid. */
export function schemaErrors(name: SchemaName, document: unknown): string[] {
  const validate = validator(name);
  if (validate(document)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}

/** Parses stdout as exactly one JSON document and checks it against the schema. */
export function documentOf(name: SchemaName, stdout: string): Record<string, unknown> {
  const document = JSON.parse(stdout) as Record<string, unknown>;
  const errors = schemaErrors(name, document);
  if (errors.length > 0) throw new Error(`not a valid ${name} document:\n${errors.join("\n")}\n${stdout}`);
  return document;
}
