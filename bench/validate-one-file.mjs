#!/usr/bin/env node
// Benchmark (not a test): `campaignctl validate` on ONE big campaign file (default 9.9 MiB, just
// under the 10 MiB a campaign file may have; about 60,000 projects), to show validate stays linear.
// Run after `npm run build`:  node bench/validate-one-file.mjs [MiB] [runs]
// Prints wall time and peak RSS of the built CLI run as a child process (median over the runs);
// exits 1 over the targets, when validate exits non-zero, or when it counts fewer projects than
// were generated.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MIB = Number(process.argv[2] ?? 9.9);
const RUNS = Math.max(1, Number(process.argv[3] ?? 1));
const TARGET_MS = 10_000;
const TARGET_BYTES = 600 * 1024 * 1024;
const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const preload = fileURLToPath(new URL("./validate-scale-rss.mjs", import.meta.url));

const HEADER = `# yaml-language-server: $schema=../schemas/campaign.schema.json
version: 1
organization: Riverside Democrats
merge_defaults:
  first_name: friend
fields: [polling_place]
defaults:
  channel: 10dlc
  brand: Riverside Democrats
  campaign: GOTV 2026
  phone_numbers: ["+15035550101", "+15035550102"]
  contact_lists: [Ward 3 Likely Voters]
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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = (b) => `${(b / (1024 * 1024)).toFixed(1)} MiB`;

const dir = mkdtempSync(join(tmpdir(), "campaignctl-bench-one-"));
try {
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
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${mib(totalmem())} RAM, node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(`input:   ${projects} projects in 1 file, ${mib(bytes)} of YAML`);
  const walls = [];
  const peaks = [];
  const cpus_ = [];
  let ok = true;
  for (let run = 0; run < RUNS; run++) {
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, ["--import", preload, cli, "validate", file, "--no-color"], {
      env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1" },
      maxBuffer: 1024 * 1024 * 1024,
      encoding: "utf8",
    });
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (child.error) throw child.error;
    const [peak, cpuMs] = readFileSync(rssFile, "utf8").split(" ").map(Number);
    const summary = /(\d+) files?, (\d+) projects?: (\d+) errors?, (\d+) warnings?/.exec(child.stdout);
    const counted = summary ? Number(summary[2]) : -1;
    const good = child.status === 0 && counted >= projects;
    ok &&= good;
    walls.push(wallMs);
    peaks.push(peak);
    cpus_.push(cpuMs);
    console.log(
      `run ${run + 1}:   exit ${child.status}; ${summary ? summary[0] : `(no summary) ${child.stderr.slice(0, 300)}`}; ${wallMs.toFixed(0)} ms wall, ${cpuMs} ms CPU, ${mib(peak)} peak RSS${good ? "" : "  <- FAILED"}`,
    );
  }
  const wall = median(walls);
  const peak = Math.max(...peaks);
  console.log(`wall:    ${wall.toFixed(0)} ms median of ${RUNS} (target < ${TARGET_MS} ms)`);
  console.log(`cpu:     ${median(cpus_)} ms median (user + system)`);
  console.log(`peak:    ${mib(peak)} RSS, highest run (target < ${mib(TARGET_BYTES)})`);
  process.exitCode = ok && wall < TARGET_MS && peak < TARGET_BYTES ? 0 : 1;
} finally {
  if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
  else console.log(`kept:    ${dir}`);
}
