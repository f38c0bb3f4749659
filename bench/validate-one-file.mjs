#!/usr/bin/env node
// Benchmark (not a test): `campaignctl validate` on ONE big campaign file (default 9.9 MiB, just
// under the 10 MiB a campaign file may have; about 60,000 projects), to show validate stays linear.
// Run after `npm run build`:  node bench/validate-one-file.mjs [MiB] [runs]
// Prints wall time and peak RSS of the built CLI run as a child process (median over the runs);
// exits 1 over the targets, when validate exits non-zero, or when it counts fewer projects than
// were generated.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { finish, inTempDir, mib, printMachine, runCli } from "./lib.mjs";
import { ONE_FILE_NOW, oneFile } from "./validate-input.mjs";

const MIB = Number(process.argv[2] ?? 9.9);
const RUNS = Math.max(1, Number(process.argv[3] ?? 1));
const TARGET_MS = 10_000;
const TARGET_BYTES = 600 * 1024 * 1024;

inTempDir("campaignctl-bench-one-", (dir) => {
  const { text, projects, bytes } = oneFile(MIB);
  const file = join(dir, "everything.yaml");
  writeFileSync(file, text);
  const rssFile = join(dir, "rss.txt");
  printMachine(1);
  console.log(`input:   ${projects} projects in 1 file, ${mib(bytes, 1)} of YAML`);
  const walls = [];
  const peaks = [];
  const cpuTimes = [];
  let ok = true;
  for (let run = 0; run < RUNS; run++) {
    const { child, wallMs, peak, cpuMs } = runCli(
      // The lint clock is pinned before the generated schedule (2027-01-12): no dependence on today.
      ["validate", file, "--no-color", "--now", ONE_FILE_NOW],
      rssFile,
      1024 * 1024 * 1024,
    );
    const summary = /(\d+) files?, (\d+) projects?: (\d+) errors?, (\d+) warnings?/.exec(child.stdout);
    const counted = summary ? Number(summary[2]) : -1;
    const good = child.status === 0 && counted >= projects;
    ok &&= good;
    walls.push(wallMs);
    peaks.push(peak);
    cpuTimes.push(cpuMs);
    console.log(
      `run ${run + 1}:   exit ${child.status}; ${summary ? summary[0] : `(no summary) ${child.stderr.slice(0, 300)}`}; ${wallMs.toFixed(0)} ms wall, ${cpuMs} ms CPU, ${mib(peak, 1)} peak RSS${good ? "" : "  <- FAILED"}`,
    );
  }
  finish({
    walls,
    cpuTimes,
    peaks,
    targetMs: TARGET_MS,
    targetBytes: TARGET_BYTES,
    cpuNote: "user + system",
    peakDigits: 1,
    ok,
  });
});
