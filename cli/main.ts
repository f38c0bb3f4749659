#!/usr/bin/env node
/**
 * The bin: runs one command in this process and sets its exit code. The error boundary, the command
 * tree and the run are cli/lifecycle/run.ts; this file only chooses how that code is loaded, before
 * loading anything else (issue 36: a short command's time is mostly start-up). On Node 20, a command
 * the build made a code-cached bundle for (`validate`, `replies`, `plan`, `apply`) runs from that bundle,
 * compiled from V8's cache (cli/lifecycle/code-cache.ts); everything else imports run.ts (on Node
 * 22.1+ with Node's own compile cache: cli/lifecycle/compile-cache.ts). Both run the same code.
 */
// First, for its side effect: the compile cache (Node 22+) for every module loaded after it.
import "./lifecycle/compile-cache.js";
import { cachedRun } from "./lifecycle/code-cache.js";

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith("/cli/main.js");
if (isEntryPoint) {
  const argv = process.argv.slice(2);
  const entry = cachedRun(argv, process.env) ?? (await import("./lifecycle/run.js"));
  process.exitCode = await entry.runProcess(argv);
}
