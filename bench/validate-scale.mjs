#!/usr/bin/env node
// Benchmark (not a test): `campaignctl validate` on 10,000 realistic projects in 100 files.
// Run after `npm run build`:  node bench/validate-scale.mjs [projects] [files] [runs]
// Prints wall time, CPU time and peak RSS of the built CLI run as a child process (median over the
// runs); exits 1 over the targets, when validate exits non-zero, or when it counts fewer projects
// than were generated.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { finish, inTempDir, mib, printMachine, runCli } from "./lib.mjs";
import { SCALE_NOW, scaleFiles } from "./validate-input.mjs";

const PROJECTS = Number(process.argv[2] ?? 10_000);
const FILES = Number(process.argv[3] ?? 100);
const RUNS = Math.max(1, Number(process.argv[4] ?? 1));
const TARGET_MS = 2000;
const TARGET_BYTES = 400 * 1024 * 1024;
inTempDir("campaignctl-bench-", (dir) => {
  let bytes = 0;
  for (const [name, text] of scaleFiles(PROJECTS, FILES)) {
    bytes += Buffer.byteLength(text);
    writeFileSync(join(dir, name), text);
  }
  const rssFile = join(dir, "rss.txt");
  printMachine(0);
  console.log(`input:   ${PROJECTS} projects in ${FILES} files, ${mib(bytes, 0)} of YAML`);
  const walls = [];
  const cpuTimes = [];
  const peaks = [];
  let ok = true;
  for (let r = 0; r < RUNS; r++) {
    // The lint clock is pinned before the generated schedules (March 2027), so the input is judged
    // the same way whatever the date the bench runs on.
    const args = ["validate", dir, "--format", "json", "--now", SCALE_NOW];
    const { child: run, wallMs, peak, cpuMs } = runCli(args, rssFile, 256 * 1024 * 1024);
    let summary = "(no JSON output)";
    let counted = -1;
    try {
      const doc = JSON.parse(run.stdout);
      counted = doc.projects;
      summary = `${doc.files.length} files, ${doc.projects} projects, ${doc.summary.errors} errors, ${doc.summary.warnings} warnings`;
    } catch {
      summary = run.stderr.slice(0, 500);
    }
    const good = run.status === 0 && counted >= PROJECTS;
    ok &&= good;
    walls.push(wallMs);
    cpuTimes.push(cpuMs);
    peaks.push(peak);
    console.log(
      `run ${r + 1}:   exit ${run.status}; ${summary}; ${wallMs.toFixed(0)} ms wall, ${cpuMs} ms CPU, ${mib(peak, 0)}${good ? "" : "  <- FAILED (non-zero exit or projects missing)"}`,
    );
  }
  finish({
    walls,
    cpuTimes,
    peaks,
    targetMs: TARGET_MS,
    targetBytes: TARGET_BYTES,
    cpuNote: "user + system, all threads",
    peakDigits: 0,
    ok,
  });
});
