/**
 * The tarball `npm pack` made from the same tree before, kept across passes (issue 35: `npm pack`
 * is about 2.3 s of CPU a pass, 2.2 of them gzip over the 17 MB package, for a tree that rarely
 * changes between two runs of the suite).
 *
 * Kept under the key of everything `npm pack` can read: the root's own files and every file under
 * the first part of each path the manifest's `files`, `main` and `bin` name ({@link packScope};
 * every file of the repository but `.git` and `node_modules` when it names none), each by path,
 * mode and content (a symbolic link's target), the npm that packs (its version) and the Node that
 * runs it. Any change to any of them is another key, so a kept tarball is always the one npm would
 * make now; a change elsewhere (a test, a source not built yet, a benchmark) packs nothing again
 * (test/ci/package-contents.test.ts checks that every file of the real pack is in that reach). A
 * package that bundles dependencies (they are packed from `node_modules`) is never kept, nor is
 * anything when npm's version cannot be read.
 *
 * The store: `node_modules/.cache/campaignctl-test-pack/<key>/` holding the tarball and `pack.json`
 * (what `npm pack --json` said of it, written last, whole, by rename). A reader copies the tarball
 * out, so pruning the store (only the newest {@link KEEP} keys stay) never takes one in use.
 */
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { delimiter, dirname, join, relative } from "node:path";

/** What `npm pack --json` says of a package: its file name, integrity and files. */
export interface PackEntry {
  readonly filename: string;
  readonly integrity: string;
  readonly files: readonly { readonly path: string }[];
}

/** How many keys the store keeps (the newest by time written). */
export const KEEP = 3;

/** The store's directory under `root`. */
export const storeOf = (root: string): string =>
  join(root, "node_modules", ".cache", "campaignctl-test-pack");

/** The version of the `npm` first on `path` (`PATH`'s format), read from its package.json; or undefined. */
export function npmVersion(path = process.env.PATH ?? ""): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const bin = join(dir, "npm");
    if (!existsSync(bin)) continue;
    try {
      // npm's bin/npm-cli.js (or bin/npm), linked from the PATH directory: its package is two up.
      const manifest = join(dirname(dirname(realpathSync(bin))), "package.json");
      const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as {
        name?: string;
        version?: string;
      };
      return name === "npm" && typeof version === "string" ? version : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A `files` entry's first part that npm would match as a glob (only plain names are read here). */
const GLOB = /[*?[\]{}!]/;

/**
 * The root's files npm packs whatever `files` says (npm-packlist: package.json, README, LICENSE,
 * LICENCE, COPYING), the ones older npm versions added (NOTICE, CHANGELOG, CHANGES, HISTORY), and
 * the ignore files; by name, any case.
 */
const ROOT_FILES =
  /^(package\.json|\.npmignore|\.gitignore|(readme|license|licence|copying|notice|changelog|changes|history)(\..*)?)$/i;

/**
 * The names of the root's entries `npm pack` can take files from (lower case), or undefined for
 * every entry. npm packs the root's own files ({@link ROOT_FILES}), the `main`, `browser` and `bin`
 * files, and what `files` names: it walks into a directory of the root only when one of these
 * starts with its name, and packs nothing from the others (a `files` name without a slash, like
 * `docs`, also matches deeper down, but only inside a directory it walks). So the key covers every
 * file under each first part of these paths, in any case (npm matches without case), whatever
 * else `files` says (`!dist/**\/*.map` excludes files the key still covers: a superset). With
 * `files` absent, a first part that is a glob, a path out of the root, or a `man` page (or
 * `directories`), every entry counts. A change outside (a test, a source not built yet) keeps the key.
 */
export function packScope(manifest: Record<string, unknown>): ReadonlySet<string> | undefined {
  const { files, main, browser, bin, man, directories } = manifest;
  if (!Array.isArray(files) || man !== undefined || directories !== undefined) return undefined;
  const named: unknown[] = [
    ...files.filter((f) => typeof f !== "string" || !f.startsWith("!")),
    main,
    browser,
    ...(typeof bin === "string" ? [bin] : Object.values((bin ?? {}) as Record<string, unknown>)),
  ].filter((f) => f !== undefined);
  const first = new Set<string>();
  for (const entry of named) {
    if (typeof entry !== "string") return undefined;
    const part = entry.replace(/^(\.\/)+/, "").split("/")[0] ?? "";
    if (part === "" || part === "." || part === ".." || GLOB.test(part)) return undefined;
    first.add(part.toLowerCase());
  }
  return first;
}

/** Whether the key covers `path` (relative to the root, `/`-separated) under `scope` ({@link packScope}). */
export function inScope(scope: ReadonlySet<string> | undefined, path: string): boolean {
  const [first = "", ...below] = path.split("/");
  if (first === ".git" || first === "node_modules") return false;
  return (
    scope === undefined || scope.has(first.toLowerCase()) || (below.length === 0 && ROOT_FILES.test(first))
  );
}

/** Every entry under `root` the key covers (see {@link inScope}), relative and `/`-separated, sorted. */
function treeOf(root: string, scope: ReadonlySet<string> | undefined): string[] {
  const top = readdirSync(root, { withFileTypes: true }).filter((e) => inScope(scope, e.name));
  const below = top
    .filter((e) => e.isDirectory())
    .flatMap((e) => readdirSync(join(root, e.name), { recursive: true, withFileTypes: true }))
    .map((e) => join(e.parentPath, e.name));
  return [...top.map((e) => join(root, e.name)), ...below]
    .map((abs) => relative(root, abs).split("\\").join("/"))
    .sort();
}

/**
 * The key of the tarball `npm` (version `npm`) would pack from `root` now, or undefined when it is
 * not to be kept (no npm version, or a package that bundles dependencies).
 */
export function packKey(
  root: string,
  npm: string | undefined,
  node = process.versions.node,
): string | undefined {
  if (npm === undefined) return undefined;
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
  if (manifest.bundleDependencies !== undefined || manifest.bundledDependencies !== undefined)
    return undefined;
  const hash = createHash("sha256");
  hash.update(`npm ${npm}\0node ${node}\0`);
  for (const path of treeOf(root, packScope(manifest))) {
    const abs = join(root, path);
    const stat = lstatSync(abs);
    hash.update(`${path}\0${stat.mode.toString(8)}\0`);
    if (stat.isSymbolicLink()) hash.update(readlinkSync(abs));
    else if (stat.isFile()) hash.update(readFileSync(abs));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/**
 * The kept pack of `key`, its tarball copied into `dir`; undefined when none is kept, or when the
 * copy's sha512 is not the integrity npm gave it (that entry is then dropped from the store).
 */
export function takeKept(root: string, key: string, dir: string): PackEntry | undefined {
  const kept = join(storeOf(root), key);
  const said = join(kept, "pack.json");
  if (!existsSync(said)) return undefined;
  const entry = JSON.parse(readFileSync(said, "utf8")) as PackEntry;
  const copy = join(dir, entry.filename);
  copyFileSync(join(kept, entry.filename), copy);
  if (`sha512-${createHash("sha512").update(readFileSync(copy)).digest("base64")}` === entry.integrity)
    return entry;
  rmSync(copy, { force: true });
  rmSync(kept, { recursive: true, force: true });
  return undefined;
}

/** Keeps the pack just made in `dir` under `key`, then prunes the store to the newest {@link KEEP}. */
export function keep(root: string, key: string, dir: string, entry: PackEntry): void {
  const store = storeOf(root);
  const building = join(store, `${key}.${process.pid}.tmp`);
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  copyFileSync(join(dir, entry.filename), join(building, entry.filename));
  writeFileSync(join(building, "pack.json"), JSON.stringify(entry));
  try {
    renameSync(building, join(store, key));
  } catch {
    // Kept by another run meanwhile (the same bytes): this copy is not needed.
    rmSync(building, { recursive: true, force: true });
  }
  // A copy left half made by a run that was killed (its process is gone) is removed.
  for (const name of readdirSync(store)) {
    const pid = /^[0-9a-f]{64}\.(\d+)\.tmp$/.exec(name)?.[1];
    if (pid !== undefined && !alive(Number(pid))) rmSync(join(store, name), { recursive: true, force: true });
  }
  const keys = readdirSync(store)
    .filter((name) => /^[0-9a-f]{64}$/.test(name))
    .map((name) => ({ name, at: statSync(join(store, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of keys.slice(KEEP)) rmSync(join(store, old.name), { recursive: true, force: true });
}

/** Whether process `pid` exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
