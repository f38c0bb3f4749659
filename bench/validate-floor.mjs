#!/usr/bin/env node
/**
 * `campaignctl validate` against its floor, in interleaved pairs (issue 36; not a test; run after
 * `npm run build`). The floor (bench/yaml-floor.mjs) is the `yaml` package's own
 * `parseAllDocuments` of the same files with the same options, in a process of its own: what no
 * validate can do without. Each pair runs the floor and `dist/cli/main.js validate` (which goes
 * first alternates), each a fresh process, and compares their CPU time (user + system, all threads,
 * node's start included for both: `process.resourceUsage()` at exit), which a loaded machine
 * distorts far less than wall time; peak RSS is printed too. Inputs (bench/validate-input.mjs):
 *
 *   scale     10,000 projects in 100 files, `validate DIR --format json` (as validate-scale.mjs)
 *   one-file  one 9.9 MiB file of about 60,000 projects, `validate FILE` (as validate-one-file.mjs)
 *
 * Target (exit 1 otherwise, or when validate fails or counts fewer projects): the median of the
 * pairs' CPU ratios (validate / floor) at most 1.2. The load (`os.loadavg`) is printed per pair.
 *
 * The input is written under node_modules/.cache, not the system's temp directory (as bench/lsp.mjs
 * does): validate's policy discovery lists every directory above the files, and this shared
 * machine's /tmp holds over 30,000 entries (about 2 % of validate's CPU here, a cost of that
 * directory and not of the check; a campaign repository's directories hold a few dozen). The
 * floor reads the same files either way. BENCH_SYSTEM_TMP=1 writes it to the temp directory.
 *
 *   node bench/validate-floor.mjs scale 7          # input, pairs
 *   node bench/validate-floor.mjs one-file 5
 *   BENCH_CLI=/other/dist/cli/main.js node bench/validate-floor.mjs scale   # another build
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inTempDir, median, mib } from "./lib.mjs";
import { ONE_FILE_NOW, oneFile, SCALE_NOW, scaleFiles } from "./validate-input.mjs";

const input = process.argv[2] ?? "scale";
const PAIRS = Math.max(1, Number(process.argv[3] ?? 5));
const TARGET_RATIO = 1.2;
const cli = process.env.BENCH_CLI ?? fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const floorScript = fileURLToPath(new URL("./yaml-floor.mjs", import.meta.url));
const preload = fileURLToPath(new URL("./validate-scale-rss.mjs", import.meta.url));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

function floorRun(target) {
  const child = spawnSync(process.execPath, [floorScript, target], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`floor failed: ${child.stderr}`);
  const out = JSON.parse(child.stdout);
  return { cpuMs: out.cpu_ms, peak: out.peak_bytes, ok: out.errors === 0 };
}

function validateRun(args, rssFile, projects) {
  const child = spawnSync(process.execPath, ["--import", preload, cli, "validate", ...args], {
    env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1" },
    maxBuffer: 1024 * 1024 * 1024,
    encoding: "utf8",
  });
  const [peak, cpuMs] = readFileSync(rssFile, "utf8").split(" ").map(Number);
  let counted = -1;
  if (args.includes("json")) counted = JSON.parse(child.stdout || "{}").projects ?? -1;
  else counted = Number(/(\d+) projects?:/.exec(child.stdout)?.[1] ?? -1);
  return { cpuMs, peak, ok: child.status === 0 && counted >= projects, status: child.status };
}

/** Runs `body(dir)` in a new directory under node_modules/.cache (see above), removed afterwards. */
function inInputDir(prefix, body) {
  if (process.env.BENCH_SYSTEM_TMP) return inTempDir(prefix, body);
  const cache = fileURLToPath(new URL("../node_modules/.cache/", import.meta.url));
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, prefix));
  try {
    body(dir);
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept:    ${dir}`);
  }
}

inInputDir("campaignctl-bench-floor-", (dir) => {
  let target;
  let args;
  let projects;
  if (input === "scale") {
    const files = scaleFiles(10_000, 100);
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    target = dir;
    args = [dir, "--format", "json", "--now", SCALE_NOW];
    projects = 10_000;
  } else if (input === "one-file") {
    const made = oneFile();
    target = join(dir, "everything.yaml");
    writeFileSync(target, made.text);
    args = [target, "--no-color", "--now", ONE_FILE_NOW];
    projects = made.projects;
  } else throw new Error(`unknown input ${input}: scale or one-file`);
  const rssFile = join(dir, "rss.txt");
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, node ${process.version}; input ${input} (${projects} projects) in ${dir}; ${PAIRS} pairs`,
  );
  const ratios = [];
  const floors = [];
  const validates = [];
  let ok = true;
  for (let pair = 0; pair < PAIRS; pair++) {
    const before = load();
    let f;
    let v;
    if (pair % 2 === 0) {
      f = floorRun(target);
      v = validateRun(args, rssFile, projects);
    } else {
      v = validateRun(args, rssFile, projects);
      f = floorRun(target);
    }
    ok &&= f.ok && v.ok;
    floors.push(f);
    validates.push(v);
    ratios.push(v.cpuMs / f.cpuMs);
    console.log(
      `pair ${pair + 1} (${pair % 2 === 0 ? "floor first" : "validate first"}): floor ${f.cpuMs} ms CPU ${mib(f.peak, 0)}, validate ${v.cpuMs} ms CPU ${mib(v.peak, 0)}${v.ok ? "" : ` FAILED (exit ${v.status})`}; ratio ${(v.cpuMs / f.cpuMs).toFixed(2)}; load ${before} -> ${load()}`,
    );
  }
  const ratio = median(ratios);
  console.log(
    `floor CPU median ${median(floors.map((r) => r.cpuMs))} ms, validate CPU median ${median(validates.map((r) => r.cpuMs))} ms; peak RSS floor ${mib(Math.max(...floors.map((r) => r.peak)), 0)}, validate ${mib(Math.max(...validates.map((r) => r.peak)), 0)}`,
  );
  console.log(
    `CPU ratio validate / floor: median ${ratio.toFixed(2)} (${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}); target <= ${TARGET_RATIO}: ${ok && ratio <= TARGET_RATIO ? "met" : "MISSED"}`,
  );
  process.exitCode = ok && ratio <= TARGET_RATIO ? 0 : 1;
});
