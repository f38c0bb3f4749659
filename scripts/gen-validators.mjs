#!/usr/bin/env node
/**
 * Writes the schema validators that `validate`, `plan` and `apply` run on every campaign and policy
 * file, as ajv standalone code: the same function `ajv.compile` would build at run time, generated
 * once here instead of in every process (compiling the campaign schema and loading ajv's compiler
 * took about 75 ms of each run's start, on every worker thread too; issue 10, bench/README.md).
 * It also writes the campaign schema as a module (SCHEMA_MODULES), for the code that reads its keys.
 * `npm run build` runs it first (so does `npm ci`, through `prepare`); the files it writes,
 * src/{campaign,policy}/generated/*.ts, are build output and not in git. A test fails when one
 * differs from what this script writes now (test/campaign/generated-validators.test.ts): a schema
 * edited after the last build is never checked by a stale validator.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import formats from "ajv-formats";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const AJV_VERSION = JSON.parse(readFileSync(join(root, "node_modules/ajv/package.json"), "utf8")).version;

/**
 * Each validator: its schema, the file written, the exported name and the ajv options. The options
 * are those the code used to compile with at run time: every error (allErrors), campaign errors
 * with the failing data and schema (verbose, read by src/campaign/schema-diagnostics.ts), strict
 * schema checks, and the `date-time` format for campaign files.
 */

/**
 * How the report schemas are compiled (src/report/report-schema-ajv.ts: REPORT_SCHEMA_OPTIONS,
 * REPORT_SCHEMA_FORMATS, SHARED_SCHEMA_URLS), for each report validator generated here.
 */
const REPORT_SCHEMAS = {
  options: { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true },
  formats: ["date-time", "uri"],
  shared: [
    "schemas/diagnostic.schema.json",
    "schemas/apply-result.schema.json",
    "schemas/policy.schema.json",
    "schemas/forecast.schema.json",
    "schemas/email.schema.json",
    "schemas/experiment-result.schema.json",
  ],
};

export const VALIDATORS = [
  {
    schema: "schemas/campaign.schema.json",
    out: "src/campaign/generated/validate-campaign.ts",
    name: "validateCampaign",
    options: { allErrors: true, verbose: true, strict: true },
    formats: ["date-time"],
  },
  {
    schema: "schemas/policy.schema.json",
    out: "src/policy/generated/validate-policy.ts",
    name: "validatePolicy",
    options: { allErrors: true, strict: true },
    formats: [],
  },
  {
    // Every line `results record` writes and `results` reads (src/results/snapshot-check.ts).
    schema: "schemas/results-snapshot.schema.json",
    out: "src/results/generated/validate-snapshot.ts",
    name: "validateResultsSnapshot",
    options: { allErrors: true, strict: true },
    formats: ["date-time"],
  },
  {
    // The sandbox's fixture (src/sandbox/fixture/load.ts), checked at every sandbox start: compiling
    // it took 0.25 s of each `--sandbox` run and of each test worker (issue 35, bench/README.md).
    // The options of src/sandbox/ajv.ts; the formats the schema uses.
    schema: "schemas/fixture.schema.json",
    out: "src/sandbox/generated/validate-fixture.ts",
    name: "validateFixtureSchema",
    options: { allErrors: true, strict: true, allowUnionTypes: true },
    formats: ["date-time", "hostname", "uri"],
  },
  {
    // A saved plan, checked by every `apply PLANFILE` before anything live is read
    // (src/report/plan-schema.ts): compiling it at run time cost about 0.5 s of each such run and of
    // each test worker (issue 35). The report schemas' options and formats (REPORT_SCHEMA_OPTIONS,
    // REPORT_SCHEMA_FORMATS there) and the schemas it refers to by file name.
    schema: "schemas/plan.schema.json",
    out: "src/report/generated/validate-plan.ts",
    name: "validatePlanSchema",
    ...REPORT_SCHEMAS,
  },
  {
    // An apply report (`apply --json`), checked by `validateApplyResult` (src/report/apply-schema.ts)
    // for the tools that read reports back and for every apply the tests make: compiling it at run
    // time cost about a second of each process that checks one (issue 35). The report schemas'
    // options, formats and shared schemas, as the saved plan's.
    schema: "schemas/apply-result.schema.json",
    out: "src/report/generated/validate-apply-result.ts",
    name: "validateApplyResultSchema",
    ...REPORT_SCHEMAS,
  },
];

/** The TypeScript module text of one validator. */
export function renderValidator(spec) {
  const ajv = new Ajv2020({ ...spec.options, code: { source: true, esm: true, lines: true } });
  if (spec.formats.length > 0) formats.default(ajv, spec.formats);
  // Schemas the schema refers to by file name (`diagnostic.schema.json#/$defs/...`), known by it.
  for (const shared of spec.shared ?? [])
    ajv.addSchema(
      JSON.parse(readFileSync(join(root, shared), "utf8")),
      shared.slice(shared.lastIndexOf("/") + 1),
    );
  const schema = JSON.parse(readFileSync(join(root, spec.schema), "utf8"));
  const code = standaloneCode.default(ajv, ajv.compile(schema));
  // ajv's ES module output still loads its run-time helpers (deep equality, string length, the
  // format checks) with `require`, and exports the function as `validate`.
  const exported = /^export const validate = (validate\d+);\nexport default validate\d+;$/m;
  const match = code.match(exported);
  if (!match) throw new Error(`ajv ${AJV_VERSION}: unexpected standalone export in ${spec.out}`);
  const body = code.replace(exported, "").replace(/^"use strict";\n/, "");
  return [
    `// Generated by scripts/gen-validators.mjs from ${spec.schema} with ajv ${AJV_VERSION}: do not edit.`,
    "// @ts-nocheck: ajv's generated JavaScript; its type is declared on the export below.",
    'import { createRequire } from "node:module";',
    'import type { ValidateFunction } from "ajv/dist/2020.js";',
    "",
    "const require = createRequire(import.meta.url);",
    body.trimEnd(),
    "",
    `export const ${spec.name}: ValidateFunction = ${match[1]};`,
    "",
  ].join("\n");
}

/**
 * Schemas that the core reads as data (the campaign schema's keys: src/campaign/key-trust.ts; the
 * language server's completions), written as a module so that no pure code reads a file at run time.
 */
export const SCHEMA_MODULES = [
  {
    schema: "schemas/campaign.schema.json",
    out: "src/campaign/generated/campaign-schema.ts",
    name: "CAMPAIGN_SCHEMA_TEXT",
  },
];

/** The TypeScript module text of one schema: its JSON text as one string constant. */
export function renderSchemaModule(spec) {
  const text = JSON.stringify(JSON.parse(readFileSync(join(root, spec.schema), "utf8")));
  return [
    `// Generated by scripts/gen-validators.mjs from ${spec.schema}: do not edit.`,
    `/** ${spec.schema}, as JSON text (parse it for a copy of its own). */`,
    `export const ${spec.name} = ${JSON.stringify(text)};`,
    "",
  ].join("\n");
}

/**
 * Sets of schemas written in TypeScript (they read the contract's constants in src/contract/limits.ts),
 * each compiled into one module exporting a validator by schema name:
 * - the sandbox's request bodies (src/sandbox/http/body-schemas.ts: BODY_SCHEMAS), with the options
 *   and formats the sandbox compiled them with at run time before (every format of ajv-formats):
 *   compiling them in each sandbox process cost its first request with a body about 100 ms of CPU
 *   (issues 35 and 36);
 * - the API's success answers (src/api/response-schemas.ts: RESPONSE_SCHEMAS), which the client
 *   checks every 2xx `data` with.
 */
export const BODY_VALIDATORS = {
  module: "src/sandbox/http/body-schemas.ts",
  out: "src/sandbox/generated/validate-bodies.ts",
  options: { allErrors: true, strict: true, allowUnionTypes: true },
  formats: true,
  schemas: "BODY_SCHEMAS",
  exportName: "BODY_VALIDATORS",
  typeName: "BodySchemaName",
  typeFrom: "../http/body-schemas.js",
};

export const RESPONSE_VALIDATORS = {
  module: "src/api/response-schemas.ts",
  out: "src/api/generated/validate-responses.ts",
  options: { allErrors: false, strict: true, allowUnionTypes: true },
  formats: false,
  schemas: "RESPONSE_SCHEMAS",
  exportName: "RESPONSE_VALIDATORS",
  typeName: "ResponseSchemaName",
  typeFrom: "../response-schemas.js",
};

/** The schemas `set.schemas` of `set.module`, read through esbuild (it is TypeScript). */
export async function schemaSet(set) {
  const out = await build({
    entryPoints: [join(root, set.module)],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "warning",
  });
  const url = `data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`;
  return (await import(url))[set.schemas];
}

/** BODY_SCHEMAS of src/sandbox/http/body-schemas.ts. */
export function bodySchemas() {
  return schemaSet(BODY_VALIDATORS);
}

/** The TypeScript module text of the request body validators, from `schemas` (BODY_SCHEMAS). */
export function renderBodyValidators(schemas) {
  return renderSchemaSet(BODY_VALIDATORS, schemas);
}

/** The TypeScript module text of `set`'s validators, from `schemas`. */
export function renderSchemaSet(set, schemas) {
  const ajv = new Ajv2020({ ...set.options, code: { source: true, esm: true, lines: true } });
  if (set.formats) formats.default(ajv);
  const names = Object.keys(schemas).sort();
  for (const name of names) ajv.addSchema(schemas[name], name);
  const code = standaloneCode.default(ajv, Object.fromEntries(names.map((name) => [name, name])));
  const exported = /^export const ([A-Za-z]+) = (validate\d+);\n/gm;
  const entries = [...code.matchAll(exported)].map((m) => `  ${m[1]}: ${m[2]},`);
  if (entries.length !== names.length)
    throw new Error(`ajv ${AJV_VERSION}: unexpected standalone exports in ${set.out}`);
  const body = code.replace(exported, "").replace(/^"use strict";\n/, "");
  return [
    `// Generated by scripts/gen-validators.mjs from ${set.module} with ajv ${AJV_VERSION}: do not edit.`,
    "// @ts-nocheck: ajv's generated JavaScript; its type is declared on the export below.",
    'import { createRequire } from "node:module";',
    'import type { ValidateFunction } from "ajv/dist/2020.js";',
    `import type { ${set.typeName} } from "${set.typeFrom}";`,
    "",
    "const require = createRequire(import.meta.url);",
    body.trimEnd(),
    "",
    `export const ${set.exportName}: Readonly<Record<${set.typeName}, ValidateFunction>> = {`,
    ...entries,
    "};",
    "",
  ].join("\n");
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  for (const spec of VALIDATORS) {
    const path = join(root, spec.out);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, renderValidator(spec));
  }
  for (const spec of SCHEMA_MODULES) {
    const path = join(root, spec.out);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, renderSchemaModule(spec));
  }
  for (const set of [BODY_VALIDATORS, RESPONSE_VALIDATORS]) {
    const path = join(root, set.out);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, renderSchemaSet(set, await schemaSet(set)));
  }
}
