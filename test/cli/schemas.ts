/** The JSON Schemas of `schemas/`, compiled with ajv 2020-12 (formats checked), for the CLI tests. */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
// ajv-formats is CommonJS: under NodeNext its default import is the module object.
import formats from "ajv-formats";

export type SchemaName =
  | "validate-result"
  | "preview-result"
  | "plan"
  | "apply-result"
  | "sandbox-info"
  | "error-result";

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
formats.default(ajv, ["date-time", "uri"]);

/** The ajv errors of `document` against `schemas/<name>.schema.json`, as `path message` lines; [] when valid. */
export function schemaErrors(name: SchemaName, document: unknown): string[] {
  const url = new URL(`../../schemas/${name}.schema.json`, import.meta.url);
  const schema = JSON.parse(readFileSync(url, "utf8")) as { $id: string };
  const validate = ajv.getSchema(schema.$id) ?? ajv.compile(schema);
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
