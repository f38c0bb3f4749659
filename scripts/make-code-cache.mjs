// Makes the V8 code cache of one code-cached bundle (scripts/after-build.mjs writes the bundle, then
// runs this in a process of its own; cli/lifecycle/code-cache.ts reads the cache): the bundle is
// compiled without a cache, runs its command (the common cases, in text and JSON) with its output
// dropped, and V8's data for every function it compiled on the way is written after a header naming
// the bundle and this Node. `replies` runs against a sandbox started in this process (src/sandbox,
// not part of the bundle: its code is not in the cache) on loopback, its clock frozen and its seed
// fixed; `plan` runs against it too, reading only. Each but `validate` runs in a directory of its
// own (its journal and state go there; the campaign files are the examples', or for `plan` a copy
// of them: a plan writes its offline snapshot beside them). The runs are fixed (files, flags, clock,
// environment, no worker threads), and V8 runs `--predictable` (no concurrent compiling or
// collecting: without it, what the collector flushed changes from run to run), so the same build
// makes the same cache, byte for byte; a cache made so is accepted by a Node run without the flag
// (test/cli/code-cache.test.ts).
//
//   node --predictable scripts/make-code-cache.mjs validate [out]   # out: the cache file by default
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import { bundleFiles, cacheFile, loadBundle } from "../dist/cli/lifecycle/code-cache.js";

const EXAMPLES = resolve("examples");
/** The example fixture's read-write key (examples/sandbox.yaml). */
const KEY = "pc_live_sbx_rv_rw_7Hq2mX9vT4";

/**
 * The runs each bundle's cache is made from (cli/lifecycle/code-cache.ts, CACHED_BUNDLES), given the
 * sandbox's URL (`undefined`: its runs need none). Each is what a user (or a cron job, or a test)
 * runs most. The `plan` bundle also runs `apply`, whose plan is the same code; runs of `apply` are
 * left out: a cache made with one came out different on a loaded machine (one byte of V8's data,
 * with the same functions compiled; bench/README.md).
 */
const RUNS = {
  validate: () => [
    ["validate", "examples/"],
    ["validate", "examples/gotv.yaml", "--json"],
  ],
  replies: (url) => [
    ["replies", "run", "--once", "--no-webhooks", "--base-url", url, `${EXAMPLES}/`],
    ["replies", "run", "--once", "--no-webhooks", "--json", "--base-url", url, `${EXAMPLES}/`],
  ],
  // Against this script's sandbox, one read held for 5 s of real time (SLOW_READ): meanwhile
  // undici's coarse clock ticks (every half second while a request is pending) and the connections
  // already answered outlive its keep-alive and are closed as idle, in every make; without the
  // hold, whether either had happened depended on how long the runs took (the machine's load), and
  // so did the cache. Not against the embedded sandbox (`--sandbox`): its clock runs at real speed;
  // and a cache made so was no faster for `plan --sandbox` (bench/README.md).
  plan: (url) => [
    ["plan", "--base-url", url, "examples/"],
    ["plan", "--base-url", url, "--json", "examples/"],
  ],
};

/** The read `plan`'s first run waits for (a fault of this script's sandbox: src/sandbox/faults). */
const SLOW_READ = "GET /projects/{id}: latency(5s, real) n=1";

/** Bundles whose runs need no sandbox of this script's: no key, no sandbox started here. */
const OFFLINE = new Set(["validate"]);
/** Bundles whose runs write nothing: they run where the build does. */
const IN_PLACE = new Set(["validate"]);

const bundle = process.argv[2];
if (RUNS[bundle] === undefined) throw new Error(`no code-cache runs for ${bundle}`);
const files = bundleFiles(bundle);
const source = readFileSync(files.source, "latin1");
const { entry, script } = loadBundle(files.source, source, undefined);
const offline = OFFLINE.has(bundle);
const inPlace = IN_PLACE.has(bundle);
const cwd = inPlace ? process.cwd() : mkdtempSync(join(tempParent(), "campaignctl-code-cache-"));
// A plan writes its offline snapshot beside the files it read (examples/.campaignctl/): a copy's.
if (bundle === "plan") cpSync(EXAMPLES, join(cwd, "examples"), { recursive: true, filter: notState });
const sandbox = offline ? undefined : await startExampleSandbox(bundle === "plan" ? SLOW_READ : undefined);
try {
  const io = {
    stdout: () => {},
    stderr: () => {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: {
      NO_COLOR: "1",
      CAMPAIGNCTL_VALIDATE_WORKERS: "0",
      ...(offline ? {} : { CAMPAIGNCTL_API_KEY: KEY }),
    },
    cwd,
    clock: () => sandbox?.clock.nowMs() ?? Date.parse("2026-06-01T12:00:00Z"),
  };
  for (const argv of RUNS[bundle](sandbox?.baseUrl)) {
    const code = await entry.run(argv, io);
    if (code !== 0) throw new Error(`${argv.join(" ")} exited ${code} while making its code cache`);
    // A minute of the API's clock between runs (a replies pass is due once a minute).
    await sandbox?.clock.advance(61_000);
  }
  // undici's coarse clock (node_modules/undici/lib/util/timers.js) ticks every half second while a
  // connection is open: whether a tick came during the runs depends on how long they took (the
  // machine's load), and so would the cache. Every make waits for ticks with the connections open.
  if (sandbox !== undefined) await pause(1_500);
} finally {
  await sandbox?.close();
  if (!inPlace) rmSync(cwd, { recursive: true, force: true });
}
writeFileSync(process.argv[3] ?? files.cache, cacheFile(source, script.createCachedData()));

/**
 * Where a bundle's runs get their directory: under node_modules/.cache/ of this tree, for every
 * bundle. The code a run takes depends on where its directory is: a plan looks for policy files in
 * every directory above its files, up to the filesystem's root (a file named like a policy in a
 * shared temporary directory, left by anyone, would change the code it runs), and the paths a run
 * prints are relative to its directory (their depth under a TMPDIR changes which branches run).
 * Under the tree, the directories above and the paths between are this build's own, so the cache
 * is the same whatever TMPDIR says (the tests' passes set one of their own).
 */
function tempParent() {
  const parent = resolve("node_modules/.cache");
  mkdirSync(parent, { recursive: true });
  return parent;
}

/** Whether a path is not in campaignctl's own state (`.campaignctl/`). */
function notState(path) {
  return !/[\\/]\.campaignctl([\\/]|$)/.test(path);
}

/** The example world's sandbox (examples/sandbox.yaml), its clock frozen, on loopback. */
async function startExampleSandbox(faults) {
  const { startSandbox } = await import("../dist/src/sandbox/index.js");
  const fixture = join(EXAMPLES, "sandbox.yaml");
  return startSandbox({ fixture, timeScale: 0, rateLimits: false, seed: 36, ...(faults ? { faults } : {}) });
}
