// Makes the V8 code cache of one command's code-cached bundle (scripts/after-build.mjs writes the
// bundle, then runs this in a process of its own; cli/lifecycle/code-cache.ts reads the cache): the
// bundle is compiled without a cache, runs the command (the common cases, in text and JSON) with
// its output dropped, and V8's data for every function it compiled on the way is written after a
// header naming the bundle and this Node. The commands that talk to the API run against a sandbox
// started in this process (src/sandbox, not part of the bundle: its code is not in the cache) on
// loopback, its clock frozen and its seed fixed, in a directory of their own (their journal and
// state go there; the campaign files are the examples'). The runs are fixed (files, flags, clock,
// environment, no worker threads), and V8 runs `--predictable` (no concurrent compiling or
// collecting: without it, what the collector flushed changes from run to run), so the same build
// makes the same cache, byte for byte; a cache made so is accepted by a Node run without the flag
// (test/cli/code-cache.test.ts).
//
//   node --predictable scripts/make-code-cache.mjs validate [out]   # out: the cache file by default
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import { bundleFiles, cacheFile, loadBundle } from "../dist/cli/lifecycle/code-cache.js";

const EXAMPLES = resolve("examples");
/** The example fixture's read-write key (examples/sandbox.yaml). */
const KEY = "pc_live_sbx_rv_rw_7Hq2mX9vT4";

/**
 * The runs each command's cache is made from, given the sandbox's URL (`undefined`: the command
 * needs none). Each is what a user (or a cron job, or a test) runs most.
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
};

/** Commands whose runs need no API: they run where the build does, with no key. */
const OFFLINE = new Set(["validate"]);

const command = process.argv[2];
if (RUNS[command] === undefined) throw new Error(`no code-cache runs for ${command}`);
const files = bundleFiles(command);
const source = readFileSync(files.source, "latin1");
const { entry, script } = loadBundle(files.source, source, undefined);
const offline = OFFLINE.has(command);
const cwd = offline ? process.cwd() : mkdtempSync(join(tmpdir(), "campaignctl-code-cache-"));
const sandbox = offline ? undefined : await startExampleSandbox();
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
  for (const argv of RUNS[command](sandbox?.baseUrl)) {
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
  if (!offline) rmSync(cwd, { recursive: true, force: true });
}
writeFileSync(process.argv[3] ?? files.cache, cacheFile(source, script.createCachedData()));

/** The example world's sandbox (examples/sandbox.yaml), its clock frozen, on loopback. */
async function startExampleSandbox() {
  const { startSandbox } = await import("../dist/src/sandbox/index.js");
  return startSandbox({ fixture: join(EXAMPLES, "sandbox.yaml"), timeScale: 0, rateLimits: false, seed: 36 });
}
