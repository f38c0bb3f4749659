/**
 * The tarball `npm pack` made from the same tree before, kept across passes (issue 35: `npm pack`
 * is about 2.3 s of CPU a pass, 2.2 of them gzip over the 17 MB package, for a tree that rarely
 * changes between two runs of the suite).
 *
 * Kept under the key of everything `npm pack` can read: the root's own files and what the
 * manifest's `files`, `main` and `bin` reach ({@link packScope}, {@link inScope}; every file of
 * the repository but `.git` and `node_modules` when they name no plain paths), each by path,
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

/** A path npm would match as a glob (only plain paths are read here). */
const GLOB = /[*?[\]{}!]/;

/**
 * The root's files npm packs whatever `files` says (npm-packlist: package.json, README, LICENSE,
 * LICENCE, COPYING), the ones older npm versions added (NOTICE, CHANGELOG, CHANGES, HISTORY), and
 * the ignore files; by name, any case.
 */
const ROOT_FILES =
  /^(package\.json|\.npmignore|\.gitignore|(readme|license|licence|copying|notice|changelog|changes|history)(\..*)?)$/i;

/**
 * What `npm pack` can take files from, by the manifest's `files`, `main`, `browser` and `bin`
 * (all lower case: npm matches without case). Invariant: every file npm packs is {@link inScope}.
 */
export interface PackScope {
  /** The names without a slash (`docs`, `CHANGELOG.md`): npm packs them, and all below, in every directory it walks. */
  readonly names: ReadonlySet<string>;
  /** The paths with one (`dist/cli`, `bench/README.md`): each, and all below. */
  readonly paths: readonly string[];
}

/**
 * The reach of `npm pack` by the manifest (see {@link inScope}), or undefined for every entry of
 * the tree: with `files` absent, a path that is a glob or out of the root, or a `man` page (or
 * `directories`). What `files` excludes (`!dist/**\/*.map`) stays in: the key covers a superset.
 */
export function packScope(manifest: Record<string, unknown>): PackScope | undefined {
  const { files, main, browser, bin, man, directories } = manifest;
  if (!Array.isArray(files) || man !== undefined || directories !== undefined) return undefined;
  const named: unknown[] = [
    ...files.filter((f) => typeof f !== "string" || !f.startsWith("!")),
    main,
    browser,
    ...(typeof bin === "string" ? [bin] : Object.values((bin ?? {}) as Record<string, unknown>)),
  ].filter((f) => f !== undefined);
  const names = new Set<string>();
  const paths = new Set<string>();
  for (const entry of named) {
    if (typeof entry !== "string") return undefined;
    const path = entry
      .replace(/^(\.\/)+/, "")
      .replace(/\/+$/, "")
      .toLowerCase();
    const parts = path.split("/");
    if (GLOB.test(path) || parts.some((p) => p === "" || p === "." || p === "..")) return undefined;
    (parts.length === 1 ? names : paths).add(path);
  }
  return { names, paths: [...paths] };
}

/** Whether npm walks the directory `dir` (lower case, `/`-separated) under `scope`: a proper prefix of a named path. */
const walked = (scope: PackScope, dir: string): boolean => scope.paths.some((p) => p.startsWith(`${dir}/`));

/**
 * Whether the key covers `path` (relative to the root, `/`-separated) under `scope`. npm packs the
 * root's own files ({@link ROOT_FILES}) and, in the root and each directory it walks (one a named
 * path goes through), what a name matches and what a path names, with everything below them; it
 * never walks into another directory. Every path but `.git` and `node_modules` when `scope` is undefined.
 */
export function inScope(scope: PackScope | undefined, path: string): boolean {
  const parts = path.toLowerCase().split("/");
  if (parts[0] === ".git" || parts[0] === "node_modules") return false;
  if (scope === undefined || (parts.length === 1 && ROOT_FILES.test(path))) return true;
  for (let i = 0; i < parts.length; i += 1) {
    const prefix = parts.slice(0, i + 1).join("/");
    if (scope.names.has(parts[i] as string) || scope.paths.includes(prefix)) return true;
    if (!walked(scope, prefix)) return false;
  }
  return false;
}

/**
 * Every entry under `root` the key covers (see {@link inScope}), relative and `/`-separated,
 * sorted: the directories npm walks, and what they hold in its reach.
 */
function treeOf(root: string, scope: PackScope | undefined, dir = ""): string[] {
  const found: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = dir === "" ? e.name : `${dir}/${e.name}`;
    if (inScope(scope, path)) {
      found.push(path);
      if (e.isDirectory())
        for (const below of readdirSync(join(root, path), { recursive: true, withFileTypes: true }))
          found.push(relative(root, join(below.parentPath, below.name)).split("\\").join("/"));
    } else if (scope !== undefined && e.isDirectory() && walked(scope, path.toLowerCase())) {
      found.push(path);
      found.push(...treeOf(root, scope, path));
    }
  }
  return dir === "" ? found.sort() : found;
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
