/**
 * The JSON Schemas of `schemas/`, compiled as the tool compiles its report schemas (ajv 2020-12,
 * strict, formats checked, the shared schemas known by their file names: `reportSchemaAjv`), for
 * the tests.
 *
 * Each schema is compiled once, when a test first checks a document against it, and kept as ajv's
 * standalone code in `node_modules/.cache/campaignctl-test-schemas/`, named by a hash of everything
 * the compiled function depends on (ajv's version, the options, the schema and every shared schema
 * it may refer to): a worker, or a later pass, loads that file (about 2 ms) instead of compiling
 * again (30 to 400 ms a schema, 2.1 s for all of them, in every worker; issue 35, bench/README.md).
 * A schema edited since gets another hash, so it is compiled anew: a stale validator is never
 * used. The function loaded is the one `ajv.compile` builds, with the same strict checks (the
 * disk cache: test/helpers/cached-validator.ts).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { ValidateFunction } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import {
  REPORT_SCHEMA_FORMATS,
  REPORT_SCHEMA_OPTIONS,
  reportSchemaAjv,
  SHARED_SCHEMA_URLS,
} from "../../src/report/report-schema-ajv.js";
import { AJV_VERSION, cachedValidator } from "./cached-validator.js";

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
  | "results-snapshot"
  | "forecast"
  | "watch-event"
  | "webhook-listen-line"
  | "webhook-verify-result"
  | "webhook-dead-letter-line";

const ROOT = new URL("../../", import.meta.url);

/**
 * The name of the cached code of `name`'s validator: a hash of ajv's version, the options, the
 * formats, the schema's text and every shared schema's text. Exported for its test.
 */
export function cacheKey(name: SchemaName, schemaText: (url: URL) => string = readText): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ ajvVersion: AJV_VERSION, REPORT_SCHEMA_OPTIONS, REPORT_SCHEMA_FORMATS }));
  for (const url of [schemaUrl(name), ...SHARED_SCHEMA_URLS])
    hash.update(`\0${url.pathname.slice(url.pathname.lastIndexOf("/") + 1)}\0${schemaText(url)}`);
  return `${name}-${hash.digest("hex").slice(0, 24)}.cjs`;
}

function readText(url: URL): string {
  return readFileSync(url, "utf8");
}

function schemaUrl(name: SchemaName): URL {
  return new URL(`schemas/${name}.schema.json`, ROOT);
}

/** `ajv.compile` of `name`'s schema as standalone code (CommonJS), as written to the cache. */
export function standaloneValidatorCode(name: SchemaName): string {
  const ajv = reportSchemaAjv({ source: true });
  const validate = ajv.compile(JSON.parse(readText(schemaUrl(name))) as Record<string, unknown>);
  return standaloneCode.default(ajv, validate);
}

const validators = new Map<SchemaName, ValidateFunction>();

/** The compiled validator of `name`: from this worker's memory, the disk cache, or compiled now. */
export function validator(name: SchemaName): ValidateFunction {
  let validate = validators.get(name);
  if (validate === undefined) {
    validate = cachedValidator(
      cacheKey(name),
      () => standaloneValidatorCode(name),
      () => reportSchemaAjv().compile(JSON.parse(readText(schemaUrl(name))) as Record<string, unknown>),
    );
    validators.set(name, validate);
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
