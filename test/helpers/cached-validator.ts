/**
 * Compiled ajv validators kept on disk as ajv standalone code, for the tests: the first worker that
 * needs one compiles it and writes the code to `node_modules/.cache/campaignctl-test-schemas/`; every
 * later worker, file and pass loads that file (a few ms) instead of compiling again (30 to 200 ms a
 * schema, more for the first compile of a process: issue 35, bench/README.md "shared costs").
 *
 * Invariant: a file is named by a sha256 of everything the compiled function depends on (ajv's
 * version, the options, the formats and the schemas' texts), so an edited schema or option gets
 * another file and a stale validator is never used. The function loaded is the one `ajv.compile`
 * builds (standalone code is ajv's own output), with the same checks and the same `errors`.
 * Validators are kept per worker too; a validator holds no state across calls but its last
 * `errors`, which each call sets, so files of one worker (`isolate: false`) may share them.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Ajv2020, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import addFormats from "ajv-formats";
import { keptFile, storeDir } from "./kept-file.js";

const ROOT = new URL("../../", import.meta.url);
const VALIDATOR_DIR = storeDir(fileURLToPath(ROOT), "campaignctl-test-schemas");
export const VALIDATOR_CACHE = pathToFileURL(`${VALIDATOR_DIR}/`);
// Resolves the run-time helpers standalone code requires (ajv/dist/runtime/*, ajv-formats).
const requireCached = createRequire(new URL("index.cjs", VALIDATOR_CACHE));

/** ajv's version, part of every cache name (another ajv may compile to other code). */
export const AJV_VERSION = (
  JSON.parse(readFileSync(new URL("node_modules/ajv/package.json", ROOT), "utf8")) as { version: string }
).version;

const loaded = new Map<string, ValidateFunction>();

/**
 * The validator cached as `fileName` (which must name everything the code depends on): from this
 * worker's memory, from the disk cache, or compiled now by `code` (standalone code) and written
 * there. Where the cache cannot be written (a read-only checkout), `compile` builds it in memory.
 */
export function cachedValidator(
  fileName: string,
  code: () => string,
  compile: () => ValidateFunction,
): ValidateFunction {
  let validate = loaded.get(fileName);
  if (validate !== undefined) return validate;
  const file = keptFile(VALIDATOR_DIR, fileName, code);
  if (file === undefined) {
    validate = compile();
    loaded.set(fileName, validate);
    return validate;
  }
  validate = requireCached(file) as ValidateFunction;
  loaded.set(fileName, validate);
  return validate;
}

/** How {@link shapeValidator} compiles: ajv 2020-12 options and whether every ajv-formats format is known. */
export interface ShapeOptions {
  readonly ajv: Pick<Options, "allErrors" | "strict" | "allowUnionTypes">;
  readonly formats: boolean;
}

/** The cache name of `schema` compiled with `options`: `<label>-<hash>.cjs`. Exported for its test. */
export function shapeCacheName(label: string, schema: object, options: ShapeOptions): string {
  const hash = createHash("sha256")
    .update(JSON.stringify({ AJV_VERSION, options, schema }))
    .digest("hex")
    .slice(0, 24);
  return `${label}-${hash}.cjs`;
}

function shapeAjv(options: ShapeOptions, source: boolean): Ajv2020 {
  const ajv = new Ajv2020({ ...options.ajv, code: { source } });
  if (options.formats) addFormats.default(ajv);
  return ajv;
}

/** The validators of schema objects already named in this worker, by schema and options. */
const bySchema = new WeakMap<object, Map<string, ValidateFunction>>();

/**
 * `new Ajv2020(options.ajv)` (with every ajv-formats format when `options.formats`) `.compile(schema)`,
 * loaded from the disk cache when it was compiled before. `schema` must be plain JSON data (its
 * JSON text is part of the cache name) that is never changed (a worker names each schema object
 * once); `label` only makes the file name readable.
 */
export function shapeValidator(label: string, schema: object, options: ShapeOptions): ValidateFunction {
  let byOptions = bySchema.get(schema);
  if (byOptions === undefined) {
    byOptions = new Map();
    bySchema.set(schema, byOptions);
  }
  const optionsKey = JSON.stringify(options);
  let validate = byOptions.get(optionsKey);
  if (validate === undefined) {
    validate = cachedValidator(
      shapeCacheName(label, schema, options),
      () => {
        const ajv = shapeAjv(options, true);
        return standaloneCode.default(ajv, ajv.compile(schema));
      },
      () => shapeAjv(options, false).compile(schema),
    );
    byOptions.set(optionsKey, validate);
  }
  return validate;
}
