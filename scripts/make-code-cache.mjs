// Makes the V8 code cache of one command's code-cached bundle (scripts/after-build.mjs writes the
// bundle, then runs this in a process of its own; cli/lifecycle/code-cache.ts reads the cache): the
// bundle is compiled without a cache, runs the command over the examples with its output dropped,
// and V8's data for every function it compiled on the way is written after a header naming the
// bundle and this Node. The runs are fixed (files, flags, clock, environment, no worker threads),
// and V8 runs `--predictable` (no concurrent compiling or collecting: without it, what the collector
// flushed changes from run to run), so the same build makes the same cache, byte for byte; a cache
// made so is accepted by a Node run without the flag (test/cli/code-cache.test.ts).
//
//   node --predictable scripts/make-code-cache.mjs validate [out]   # out: the cache file by default
import { readFileSync, writeFileSync } from "node:fs";
import { bundleFiles, cacheFile, loadBundle } from "../dist/cli/lifecycle/code-cache.js";

/** The runs each command's cache is made from: the common cases, in text and JSON. */
const RUNS = {
  validate: [
    ["validate", "examples/"],
    ["validate", "examples/gotv.yaml", "--json"],
  ],
};

const command = process.argv[2];
const runs = RUNS[command];
if (runs === undefined) throw new Error(`no code-cache runs for ${command}`);
const files = bundleFiles(command);
const source = readFileSync(files.source, "latin1");
const { entry, script } = loadBundle(files.source, source, undefined);
const io = {
  stdout: () => {},
  stderr: () => {},
  stdoutIsTTY: false,
  stderrIsTTY: false,
  stdinIsTTY: false,
  env: { NO_COLOR: "1", CAMPAIGNCTL_VALIDATE_WORKERS: "0" },
  cwd: process.cwd(),
  clock: () => Date.parse("2026-06-01T12:00:00Z"),
};
for (const argv of runs) await entry.run(argv, io);
writeFileSync(process.argv[3] ?? files.cache, cacheFile(source, script.createCachedData()));
