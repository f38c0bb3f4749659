#!/usr/bin/env node
// Benchmark (not a test): `campaignctl validate` on ONE big campaign file (default 9.9 MiB, just
// under the 10 MiB a campaign file may have; about 60,000 projects), to show validate stays linear.
// Run after `npm run build`:  node bench/validate-one-file.mjs [MiB] [runs]
// Prints wall time and peak RSS of the built CLI run as a child process (median over the runs);
// exits 1 over the targets, when validate exits non-zero, or when it counts fewer projects than
// were generated.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CAMPAIGN_FILE_HEAD, finish, inTempDir, mib, printMachine, runCli } from "./lib.mjs";

const MIB = Number(process.argv[2] ?? 9.9);
const RUNS = Math.max(1, Number(process.argv[3] ?? 1));
const TARGET_MS = 10_000;
const TARGET_BYTES = 600 * 1024 * 1024;

const HEADER = `${CAMPAIGN_FILE_HEAD}  contact_lists: [Ward 3 Likely Voters]
  suppression_lists: [Do Not Text]
  state: scheduled
  schedule:
    at: "2027-01-12T10:00:00-06:00"
    timezone: America/Chicago
  test:
    contacts:
      - phone: "+15035550150"
        merge_values: {first_name: Maria, polling_place: Riverside Community Center}
projects:
`;

function projectYaml(n) {
  const hex = String(n).padStart(12, "0");
  return `  p-${n}:
    id: 9b${hex.slice(-6)}-0000-4000-8000-${hex}
    name: Ward ${n % 40} turnout ${n}
    message: Hi {{first_name|friend}}, vote Tuesday in Ward ${n % 40}. Reply STOP to opt out
`;
}

inTempDir("campaignctl-bench-one-", (dir) => {
  const limit = Math.floor(MIB * 1024 * 1024);
  const parts = [HEADER];
  let bytes = Buffer.byteLength(HEADER);
  let projects = 0;
  for (;;) {
    const next = projectYaml(projects);
    const size = Buffer.byteLength(next);
    if (bytes + size > limit) break;
    parts.push(next);
    bytes += size;
    projects++;
  }
  const file = join(dir, "everything.yaml");
  writeFileSync(file, parts.join(""));
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
      ["validate", file, "--no-color", "--now", "2027-01-01T12:00:00Z"],
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
