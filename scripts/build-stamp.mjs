/**
 * What a build of dist/ was made from, so that a build whose inputs have not changed since the
 * last one is skipped (issue 35: `npm test` builds first, and a full build is about 24 s of CPU on
 * 2 cores, a sixth of a pass, though `npm ci` has just built the same tree).
 *
 * The stamp, `dist/.build-stamp.json`, is written only after every step of a build succeeded. It
 * holds the inputs' fingerprint, whether `tsc` type-checked them, and every file the build left in
 * dist/ and src/ *\/generated/ with its size. A build is current when the fingerprint is the same,
 * a type-checked build was asked for only if this one was type-checked, and every listed file is
 * still there with its size. Anything else (an edited, added, removed or renamed source, another
 * Node, V8, ICU or tz version, a lockfile change, a deleted or cut output) builds again.
 *
 * The fingerprint covers every file under the input directories (content and path; but the
 * generated ones and the tool's own `.campaignctl/` state) and the input files below, and the runtime (the zone table and the code caches are the building Node's own).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** Directories whose every file is an input (the generated ones are outputs: GENERATED). */
export const INPUT_DIRS = ["cli", "src", "schemas", "scripts", "examples"];
/** Single files that are inputs. */
export const INPUT_FILES = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"];
/** Build output inside the source tree (scripts/gen-validators.mjs, scripts/gen-zone-offsets.mjs). */
const GENERATED = /(^|\/)generated\//;
/**
 * The state `campaignctl` keeps beside the files it reads (`.campaignctl/`, ignored by git: a `plan`
 * of examples/ writes examples/.campaignctl/snapshot.json), which no build reads.
 */
const TOOL_STATE = /(^|\/)\.campaignctl\//;
/** Where the stamp is kept: inside dist/, so removing dist/ removes it. */
export const STAMP = "dist/.build-stamp.json";

/** Files under `dir` (relative to `root`, `/`-separated), recursively, sorted. */
function walk(root, dir) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

/** The inputs' fingerprint: each input file's path and content, then the runtime. */
export function fingerprint(root, runtime = process.versions) {
  const hash = createHash("sha256");
  const files = [
    ...INPUT_DIRS.flatMap((d) => walk(root, d)).filter((f) => !GENERATED.test(f) && !TOOL_STATE.test(f)),
    ...INPUT_FILES,
  ];
  hashFiles(hash, root, files);
  hash.update(JSON.stringify(runtime));
  return hash.digest("hex");
}

/** Adds each file's path (relative to `root`) and content to `hash`; a missing file counts as such. */
export function hashFiles(hash, root, files) {
  for (const file of files) {
    const abs = join(root, file);
    hash.update(`${file}\0`);
    hash.update(existsSync(abs) ? readFileSync(abs) : "\0missing\0");
    hash.update("\0");
  }
}

/** Every file a build leaves: dist/ (but the stamp) and the generated sources, with their sizes. */
export function outputs(root) {
  const files = [
    ...walk(root, "dist").filter((f) => f !== STAMP),
    ...walk(root, "src").filter((f) => GENERATED.test(f)),
  ];
  return Object.fromEntries(files.map((f) => [f, statSync(join(root, f)).size]));
}

/** The stamp of the build just made. */
export function makeStamp(root, checked) {
  return { fingerprint: fingerprint(root), checked, outputs: outputs(root) };
}

/**
 * Why the last build does not serve (a sentence), or undefined when it does. `checked`: whether
 * the build asked for must have type-checked its inputs.
 */
export function staleReason(root, checked) {
  const path = join(root, STAMP);
  if (!existsSync(path)) return "no build recorded in dist/";
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return `${STAMP} is unreadable`;
  }
  if (checked && stamp.checked !== true) return "the last build did not type-check";
  for (const [file, size] of Object.entries(stamp.outputs ?? {})) {
    const abs = join(root, file);
    if (!existsSync(abs)) return `${file} is missing`;
    if (statSync(abs).size !== size) return `${file} changed since the build`;
  }
  if (stamp.fingerprint !== fingerprint(root))
    return "sources, lockfile or Node changed since the last build";
  return undefined;
}
