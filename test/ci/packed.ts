/**
 * The package as `npm pack` makes it (offline, `--ignore-scripts`), packed once per pass and shared
 * by the files that read it (test/ci/package-contents.test.ts: what it holds; test/ci/setup-action.test.ts:
 * the tarball and npm's integrity). `npm pack` costs about 2.3 s of CPU (npm loads the whole
 * dependency tree); each file packing its own doubled that.
 *
 * Once per pass, whichever worker asks first: the pass's temp root (test/support/temp-root.ts) gets
 * a directory `npm-pack-<run>` (`run` from test/ci/pack-run.ts, new at each watch-mode rerun); the
 * worker that makes it (mkdir is atomic) packs into it and then writes `pack.json` (written whole,
 * then renamed into place); a worker that finds the directory made waits for `pack.json` (watching
 * the directory, no polling). A failed pack is written there too, so the waiting file fails with
 * npm's error instead of timing out. Outside the suite's config (no temp root), a file packs into
 * a temp directory of its own. The tarball and its directory are read only: nothing may change them.
 * The pack of a tree npm packed before is that tarball, copied from node_modules/.cache
 * (./pack-cache.ts): any change to the tree, npm or Node packs again.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { keep, npmVersion, type PackEntry, packKey, takeKept } from "./pack-cache.js";

/** npm configured so that it reaches nothing: offline, and a registry on a closed loopback port. */
export const NO_REGISTRY = {
  npm_config_offline: "true",
  npm_config_registry: "http://127.0.0.1:9/",
  npm_config_update_notifier: "false",
} as const;

/** The packed package. Invariant: `tarball` exists and its sha512 is `integrity`. */
export interface Packed {
  /** The tarball's absolute path. */
  readonly tarball: string;
  /** Its sha512 as npm prints it (`sha512-<base64>`). */
  readonly integrity: string;
  /** Every file in it, relative to the package root (POSIX), as `npm pack --json` lists them. */
  readonly files: readonly string[];
}

/** What pack.json holds: the package, or why packing failed. */
type Outcome = { readonly packed: Packed } | { readonly error: string };

/** How long a worker waits for another one's pack (npm takes seconds; minutes on a loaded machine). */
const WAIT_MS = 180_000;

let cached: Promise<Packed> | undefined;

/** The package packed once for this pass (see above). */
export function packedPackage(): Promise<Packed> {
  cached ??= packOnce();
  return cached;
}

async function packOnce(): Promise<Packed> {
  const root = process.env.CAMPAIGNCTL_TEST_TMP_ROOT;
  if (root === undefined) return packInto(mkdtempSync(join(tmpdir(), "campaignctl-pack-")));
  const dir = join(root, `npm-pack-${inject("packRun")}`);
  const done = join(dir, "pack.json");
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    return unwrap(await waitForFile(dir, done));
  }
  let outcome: Outcome;
  try {
    outcome = { packed: packInto(dir) };
  } catch (e) {
    outcome = { error: e instanceof Error ? e.message : String(e) };
  }
  writeFileSync(`${done}.tmp`, JSON.stringify(outcome));
  renameSync(`${done}.tmp`, done);
  return unwrap(outcome);
}

function unwrap(outcome: Outcome): Packed {
  if ("error" in outcome) throw new Error(`npm pack failed: ${outcome.error}`);
  return outcome.packed;
}

/**
 * The package in `dir`: the tarball npm packed from this very tree before (./pack-cache.ts: kept
 * under the key of every file of the tree, npm's version and Node's), else `npm pack` run now,
 * then kept if the tree did not change while npm read it.
 */
function packInto(dir: string): Packed {
  const root = process.cwd();
  const key = packKey(root, npmVersion());
  const kept = key === undefined ? undefined : orNothing(() => takeKept(root, key, dir));
  const entry = kept ?? npmPack(dir);
  if (key !== undefined && kept === undefined && packKey(root, npmVersion()) === key)
    orNothing(() => keep(root, key, dir, entry));
  return {
    tarball: join(dir, entry.filename),
    integrity: entry.integrity,
    files: entry.files.map((f) => f.path),
  };
}

/**
 * `f()`, or undefined when it throws: the store is a saving only, so a store that cannot be read or
 * written (a full disk, another run pruning the key being copied) means `npm pack`, never a failure.
 */
function orNothing<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** Runs `npm pack` into `dir`: what it says of the package. */
function npmPack(dir: string): PackEntry {
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...NO_REGISTRY },
  });
  const [entry] = JSON.parse(out) as PackEntry[];
  if (entry === undefined) throw new Error(`npm pack printed no package: ${out}`);
  return entry;
}

/** Resolves with `file`'s JSON once it is in `dir` (renamed into place whole). */
function waitForFile(dir: string, file: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir);
    const timer = setTimeout(
      () => finish(new Error(`another test worker began \`npm pack\` in ${dir} and wrote no ${file}`)),
      WAIT_MS,
    );
    let settled = false;
    function finish(error: Error | undefined, outcome?: Outcome): void {
      if (settled) return;
      settled = true;
      watcher.close();
      clearTimeout(timer);
      if (error !== undefined || outcome === undefined) reject(error);
      else resolve(outcome);
    }
    const check = (): void => {
      if (existsSync(file)) finish(undefined, JSON.parse(readFileSync(file, "utf8")) as Outcome);
    };
    watcher.on("change", check);
    watcher.on("error", (e) => finish(e));
    check();
  });
}
