/**
 * What scripts/gen-validators.mjs renders for a validator, kept across passes (issue 35: rendering
 * the six validators, ajv compiling each schema as standalone code, was about half of
 * test/campaign/generated-validators.test.ts's CPU time, in every pass, for inputs that rarely change).
 *
 * Kept in `node_modules/.cache/campaignctl-test-validators/<out's file name>-<key>.txt`, the key a
 * sha256 of everything the text is made from: the generator script, the spec, the schema and the
 * shared schemas it names, the versions of ajv and ajv-formats installed and the lockfile, and
 * Node's version. Any change to one of them is another key, so the text kept is the one the
 * generator would render now; the text is never taken from the generated file itself. One key is
 * kept per validator (a new one replaces the older).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { hashFiles } from "../../scripts/build-stamp.mjs";
import { keptFile, storeDir } from "../helpers/kept-file.js";

const STORE = "campaignctl-test-validators";

/** A validator of scripts/gen-validators.mjs's VALIDATORS, as far as its rendering reads it. */
export interface RenderSpec {
  readonly schema: string;
  readonly out: string;
  readonly shared?: readonly string[];
}

/** The files under `root` whose content a rendering depends on, besides the spec's schemas. */
const RENDER_INPUTS = [
  "scripts/gen-validators.mjs",
  "package-lock.json",
  "node_modules/ajv/package.json",
  "node_modules/ajv-formats/package.json",
];

/** The key of `spec`'s rendering from the files under `root` as they are now. */
export function renderKey(root: string, spec: RenderSpec, node = process.versions.node): string {
  const hash = createHash("sha256");
  hash.update(`${JSON.stringify(spec)}\0node ${node}\0`);
  hashFiles(hash, root, [...RENDER_INPUTS, spec.schema, ...(spec.shared ?? [])]);
  return hash.digest("hex");
}

/** The kept rendering of `spec` under `root`, else `render(spec)` now, then kept. */
export function renderedOnce<S extends RenderSpec>(
  root: string,
  spec: S,
  render: (spec: S) => string,
): string {
  const name = basename(spec.out);
  const kept = `${name}-${renderKey(root, spec)}.txt`;
  const dir = storeDir(root, STORE);
  const file = keptFile(dir, kept, () => render(spec));
  if (file === undefined) return render(spec);
  // One key kept per validator: a new one replaces the older.
  for (const other of readdirSync(dir))
    if (other.startsWith(`${name}-`) && other !== kept) rmSync(join(dir, other), { force: true });
  return readFileSync(file, "utf8");
}
