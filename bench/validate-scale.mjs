#!/usr/bin/env node
// Benchmark (not a test): `campaignctl validate` on 10,000 realistic projects in 100 files.
// Run after `npm run build`:  node bench/validate-scale.mjs [projects] [files] [runs]
// Prints wall time, CPU time and peak RSS of the built CLI run as a child process (median over the
// runs); exits 1 over the targets, when validate exits non-zero, or when it counts fewer projects
// than were generated.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CAMPAIGN_FILE_HEAD, finish, inTempDir, mib, printMachine, runCli } from "./lib.mjs";

const PROJECTS = Number(process.argv[2] ?? 10_000);
const FILES = Number(process.argv[3] ?? 100);
const RUNS = Math.max(1, Number(process.argv[4] ?? 1));
const TARGET_MS = 2000;
const TARGET_BYTES = 400 * 1024 * 1024;
/** `validate --now`: before every generated schedule, so no run depends on today's date. */
const LINT_NOW = "2027-01-15T12:00:00Z";

const TIMEZONES = ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"];
// Standard time, and daylight time from Sunday 2027-03-14 on (the lint checks offsets against zones).
const OFFSETS = ["-05:00", "-06:00", "-07:00", "-08:00"];
const DST_OFFSETS = ["-04:00", "-05:00", "-06:00", "-07:00"];

function projectYaml(n, fileIndex) {
  const zone = fileIndex % TIMEZONES.length;
  const day = String(1 + (n % 20)).padStart(2, "0");
  const hour = String(9 + (n % 10)).padStart(2, "0");
  const after = n % 10 === 0 ? "" : `    after: [p-${n - 1}]\n`;
  return `  p-${n}:
    id: 9b${String(n).padStart(6, "0")}-0000-4000-8000-${String(n).padStart(12, "0")}
    name: Ward ${n % 40} turnout ${n}
    message: >-
      Hi {{first_name|friend}}, the Ward ${n % 40} runoff is Tuesday. Your polling place is
      {{polling_place|your usual polling place}}, open 7am-7pm. Reply STOP to opt out
    contact_lists: [Ward ${n % 40} Likely Voters]
    state: scheduled
    schedule:
      at: "2027-03-${day}T${hour}:00:00${(Number(day) >= 14 ? DST_OFFSETS : OFFSETS)[zone]}"
      timezone: ${TIMEZONES[zone]}
${after}`;
}

function fileYaml(fileIndex, from, to) {
  let text = `${CAMPAIGN_FILE_HEAD}  suppression_lists: [Do Not Text]
  test:
    contacts:
      - phone: "+15035550150"
        merge_values: {first_name: Maria, polling_place: Riverside Community Center}
      - phone: "+15035550151"
projects:
`;
  for (let n = from; n < to; n++) text += projectYaml(n, fileIndex);
  return text;
}

inTempDir("campaignctl-bench-", (dir) => {
  const perFile = Math.ceil(PROJECTS / FILES);
  let bytes = 0;
  for (let f = 0; f < FILES; f++) {
    const text = fileYaml(f, f * perFile, Math.min(PROJECTS, (f + 1) * perFile));
    bytes += Buffer.byteLength(text);
    writeFileSync(join(dir, `ward-${String(f).padStart(3, "0")}.yaml`), text);
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
    const args = ["validate", dir, "--format", "json", "--now", LINT_NOW];
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
