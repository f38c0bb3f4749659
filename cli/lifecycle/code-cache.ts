/**
 * V8's code cache for the bin on Node 20 (issue 36: a `validate` of one small file is mostly
 * start-up, and compiling the code it runs for the first time is the largest part of it; so is a
 * short `replies run`, issue 35). Node 20 keeps no compiled code of ES modules between
 * runs (22.1 and later do: compile-cache.ts), but `vm.Script` accepts V8's `cachedData`. So the
 * build (scripts/after-build.mjs) also writes, for each bundle of CACHED_BUNDLES, one script
 * holding cli/lifecycle/run.ts and everything its commands can reach (the other commands'
 * registrations are left out: a run of `validate` never loads them; undici is in it, where the ES
 * modules leave it to Node's loader), and the code V8 compiled while runs of its commands went
 * through it, made with the Node that built it.
 *
 * Invariants: the cache never changes what runs, only how fast. It is given to V8 only when its
 * header names this bundle (the id on the bundle's first line), this Node version and architecture,
 * and the CRC-32 of the data matches; otherwise, or when V8 rejects it (`cachedDataRejected`), V8
 * compiles the source as usual. No bundle (a run from the sources), Node 22.1+ (its own compile
 * cache), `NODE_DISABLE_COMPILE_CACHE=1` or another command: the bin imports run.ts as an ES module.
 * `CAMPAIGNCTL_DEBUG=1` says on stderr which way a run went.
 */
import { readFileSync } from "node:fs";
import module, { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { crc32 } from "node:zlib";
import { commandWord } from "./command-word.js";

/**
 * The code-cached bundles, each with the commands it runs. `validate`, whose run is mostly
 * start-up; `replies`, started again and again by cron jobs and supervisors (`replies run --once`, a
 * worker restarted after a crash), whose start-up was 40% of a short run's CPU (bench/README.md,
 * "Issue 35: code-cached bundles"); `plan` and `apply` in one bundle (they share the loading, the
 * session, the plan and the embedded sandbox: one bundle costs the package half of two), its cache
 * made by runs of `plan` (the README's quick start is `plan --sandbox`: issues 35 and 36), which
 * `apply` runs first too. Each bundle adds about 1.5 MB to the package (packed), and its cache must come out the
 * same at every build (`apply`'s own runs do not yet: docs/development.md): not every command has one.
 */
export const CACHED_BUNDLES: Readonly<Record<string, readonly string[]>> = {
  validate: ["validate"],
  replies: ["replies"],
  plan: ["plan", "apply"],
};

/** The commands that run from a code-cached bundle. */
export const CACHED_COMMANDS: readonly string[] = Object.values(CACHED_BUNDLES).flat();

/** The code-cached bundle that runs `command`, if any. */
export function bundleOf(command: string): string | undefined {
  return Object.keys(CACHED_BUNDLES).find((bundle) => CACHED_BUNDLES[bundle]?.includes(command));
}

/** What a bundle exports: cli/lifecycle/run.ts. */
export interface RunEntry {
  readonly runProcess: (argv: readonly string[]) => Promise<number>;
}

/** How a bundle was compiled: with the cache, or why without it. */
export type CacheState = "accepted" | "rejected by V8" | "absent" | "foreign" | "corrupt";

/** The directory of the bundles, dist/cli/code-cache (this module is dist/cli/lifecycle/...). */
const DIR = new URL("../code-cache/", import.meta.url);
/** The URL each bundled module's `import.meta.url` is made from (scripts/after-build.mjs). */
export const BUNDLE_BASE = new URL("../main.js", import.meta.url).href;
const MAGIC = "campaignctl-code-cache 1";

/**
 * The parameters of the function a bundle is wrapped in (scripts/after-build.mjs), given in this
 * order by loadBundle: CommonJS's five, and the URL the modules' `import.meta.url` are made from.
 */
export const BUNDLE_PARAMETERS = [
  "exports",
  "require",
  "module",
  "__filename",
  "__dirname",
  "__campaignctlBase",
] as const;

/** The code-cached bundle named `bundle` (a key of CACHED_BUNDLES) and its cache file. */
export function bundleFiles(bundle: string): { readonly source: string; readonly cache: string } {
  return {
    source: fileURLToPath(new URL(`${bundle}.js`, DIR)),
    cache: fileURLToPath(new URL(`${bundle}.cache`, DIR)),
  };
}

/** The id on a bundle's first line (`// <id>`), written by the build. */
export function bundleId(source: string): string {
  return source.slice(3, source.indexOf("\n"));
}

/** A cache file: the header line naming what `data` is for, then V8's data. */
export function cacheFile(source: string, data: Buffer): Buffer {
  const header = `${MAGIC} ${bundleId(source)} ${process.version} ${process.arch} ${crc32(data)}\n`;
  return Buffer.concat([Buffer.from(header, "latin1"), data]);
}

/** V8's data in `file` when it is this bundle's, for this Node: else why not. */
export function cachedData(source: string, file: Buffer | undefined): Buffer | CacheState {
  if (file === undefined) return "absent";
  const end = file.indexOf(10);
  if (end < 0 || end > 256) return "corrupt";
  const [magic, version, id, node, arch, crc] = file.subarray(0, end).toString("latin1").split(" ");
  if (`${magic} ${version}` !== MAGIC) return "corrupt";
  if (id !== bundleId(source) || node !== process.version || arch !== process.arch) return "foreign";
  const data = file.subarray(end + 1);
  return String(crc32(data)) === crc ? data : "corrupt";
}

/** Compiles a bundle (with `data` when given) and runs its top level: its exports and its script. */
export function loadBundle(
  path: string,
  source: string,
  data: Buffer | undefined,
): { readonly entry: RunEntry; readonly script: vm.Script } {
  const script = new vm.Script(source, {
    filename: path,
    ...(data === undefined ? {} : { cachedData: data }),
    // An `import()` goes through Node's loader, as from a module, but only in code V8 compiled
    // from the source: on Node 20 one compiled from the cache throws (the callback is lost), so a
    // bundle reaches none (scripts/after-build.mjs: its packages are required; the other commands'
    // registrations, the only `import()` left, are never loaded by a run of its command).
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const exported = { exports: {} as RunEntry };
  wrapper(exported.exports, lazyRequire(createRequire(path)), exported, path, dirname(path), BUNDLE_BASE);
  return { entry: exported.exports, script };
}

/**
 * The run of `argv` from its command's code-cached bundle, or undefined when the bin is to import
 * run.ts instead (see the file comment).
 */
export function cachedRun(argv: readonly string[], env: NodeJS.ProcessEnv): RunEntry | undefined {
  const command = commandWord(argv);
  const bundle = command === undefined ? undefined : bundleOf(command);
  if (bundle === undefined) return undefined;
  if ("enableCompileCache" in module || env.NODE_DISABLE_COMPILE_CACHE === "1") return undefined;
  const files = bundleFiles(bundle);
  // ASCII only (scripts/after-build.mjs): Latin-1 makes the one-byte string V8 reads fastest.
  const source = readOrUndefined(files.source)?.toString("latin1");
  if (source === undefined) return undefined;
  const data = cachedData(source, readOrUndefined(files.cache));
  const { entry, script } = loadBundle(files.source, source, typeof data === "string" ? undefined : data);
  if (env.CAMPAIGNCTL_DEBUG === "1") {
    const state: CacheState =
      typeof data === "string" ? data : script.cachedDataRejected === true ? "rejected by V8" : "accepted";
    process.stderr.write(`campaignctl: ${command} from ${files.source}, code cache ${state}\n`);
  }
  return entry;
}

/**
 * Node's modules that a run of a cached command often does not use, though a module it loads
 * imports them (commander spawns executable subcommands with `child_process`, which loads `net`
 * and `dgram`; a file's digest needs `crypto`; worker threads start on 3 cores or more): each is
 * loaded on its first use, not when the bundle's module that imports it is. 2 to 5 ms each.
 */
const LAZY_BUILTINS: ReadonlySet<string> = new Set([
  "node:child_process",
  "node:crypto",
  "node:worker_threads",
  "node:fs/promises",
]);

/** `require`, with the modules of LAZY_BUILTINS loaded on first use (property access). */
function lazyRequire(require: NodeJS.Require): (id: string) => unknown {
  return (id) => (LAZY_BUILTINS.has(id) ? lazily(() => require(id) as object) : require(id));
}

/** An object that stands for `load()`'s, loading it the first time it is looked into. */
function lazily(load: () => object): object {
  let loaded: object | undefined;
  const target = (): object => {
    loaded ??= load();
    return loaded;
  };
  return new Proxy(
    {},
    {
      get: (_, key) => Reflect.get(target(), key),
      has: (_, key) => Reflect.has(target(), key),
      ownKeys: () => Reflect.ownKeys(target()),
      getOwnPropertyDescriptor: (_, key) => {
        const found = Reflect.getOwnPropertyDescriptor(target(), key);
        return found === undefined ? undefined : { ...found, configurable: true };
      },
    },
  );
}

function readOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
