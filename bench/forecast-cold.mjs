#!/usr/bin/env node
/**
 * Forecast of N scheduled projects in a cold process (issue 36; not a test; run after `npm run
 * build`): what the forecast costs a `plan --forecast` run, which starts a fresh process each time.
 * Each run is a new `node` process that loads the forecast's code (the core, the JSON, Markdown and
 * text views, the policy findings and their holds in the plan) and runs it once on the input of
 * bench/forecast.mjs (forecast-input.mjs). Timed in the child: the load plus the one run (the
 * input's own construction is left out), wall and CPU (process.cpuUsage: user + system, which a
 * loaded machine distorts far less), the run's CPU split into core, views and findings.
 *
 * Two ways to load the code, interleaved process by process (both unless one is named):
 * - `bundled` (the row's figure): the six modules and all they import, luxon included, bundled into
 *   one ES module by esbuild with the bin's options (scripts/after-build.mjs), as the built bin
 *   loads them: what a user of `campaignctl plan --forecast` waits for. Its load is timed whole.
 * - `modules`: dist/src as tsc emits it, one module per file (what tests and the warm bench import);
 *   the plan's own module the findings join (src/plan/forecast-hold.js) is imported before the
 *   clock, unless --with-plan. Compares with builds before the bundle (BENCH_DIST).
 * The floor is the goal itself, 100 ms; the ratio is the median over it. Exit 1 when the median
 * wall time of the first way measured is 100 ms or more.
 *
 *   node bench/forecast-cold.mjs              # 1000 projects, 15 processes each way
 *   node bench/forecast-cold.mjs 1000 31 --bundled
 *   node bench/forecast-cold.mjs --modules --with-plan
 *   BENCH_DIST=/other/dist node bench/forecast-cold.mjs   # another build (bundled from its dist/src)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const numbers = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const N = Number(numbers[0] ?? 1000);
const RUNS = Number(numbers[1] ?? 15);
const FLOOR_MS = 100;
/** A module of the build (BENCH_DIST: another build's dist/ directory, to measure a version before a change). */
const distDir =
  process.env.BENCH_DIST === undefined
    ? new URL("../dist/", import.meta.url)
    : pathToFileURL(`${process.env.BENCH_DIST}/`);
/** The six modules a forecast in a plan runs: core, JSON, findings, the plan's holds, Markdown, text. */
const MODULES = [
  "src/forecast/index.js",
  "src/forecast/json.js",
  "src/forecast/policy-hold.js",
  "src/plan/forecast-hold.js",
  "src/report/forecast-markdown.js",
  "src/report/forecast-text.js",
];
const only = ["bundled", "modules"].filter((m) => process.argv.includes(`--${m}`));
/** The ways measured, in the order of the first process. */
const WAYS = only.length > 0 ? only : ["bundled", "modules"];
/** `bundled`: the six modules and what they import as one ES module, with the bin's bundle options. */
const bundleDir = WAYS.includes("bundled") ? mkdtempSync(join(tmpdir(), "forecast-cold-")) : null;
if (bundleDir !== null) {
  const { build } = await import("esbuild");
  const entry = join(bundleDir, "entry.mjs");
  writeFileSync(
    entry,
    MODULES.map(
      (m, i) => `export * as m${i} from ${JSON.stringify(fileURLToPath(new URL(m, distDir)))};`,
    ).join("\n"),
  );
  await build({
    entryPoints: [entry],
    outfile: join(bundleDir, "forecast.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20.19",
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "warning",
  });
}
const bundleUrl =
  bundleDir === null ? null : JSON.stringify(pathToFileURL(join(bundleDir, "forecast.mjs")).href);
const dist = (path) => JSON.stringify(new URL(path, distDir).href);
const input = JSON.stringify(new URL("./forecast-input.mjs", import.meta.url).href);

/**
 * The child of one way: loads, builds the input (not timed), runs once, prints its timings. With
 * `modules`, the plan's own module that the findings join (src/plan/forecast-hold.js) is loaded by
 * every `plan` run with or without a forecast: imported before the clock starts, unless --with-plan.
 */
const withPlan = process.argv.includes("--with-plan");
const planImport = `import(${dist("src/plan/forecast-hold.js")})`;
const childOf = (way) => {
  const imports =
    way === "modules"
      ? `await Promise.all([${MODULES.map((m) => `import(${dist(m)})`).join(", ")}])`
      : `Object.values(await import(${bundleUrl}))`;
  const before = way === "modules" && !withPlan ? `await ${planImport};` : "";
  return `${before}\n${childBody.replace("IMPORTS", imports)}`;
};
const childBody = `
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const [{ DEFAULT_CAPACITY, forecast }, { forecastJson }, { judgeFindings }, hold, { forecastMarkdown }, { forecastText }] = IMPORTS;
const t1 = performance.now();
const cpu1 = process.cpuUsage();
const { forecastInput, NOW, RULE } = await import(${input});
const { projects, capacity, plan } = forecastInput(${N}, DEFAULT_CAPACITY);
const cpu2 = process.cpuUsage();
const t2 = performance.now();
const f = forecast({ projects, capacity, nowMs: NOW });
const t3 = performance.now();
const cpuCore = process.cpuUsage();
JSON.stringify(forecastJson(f));
forecastMarkdown(f);
forecastText(f);
const cpuViews = process.cpuUsage();
const judged = judgeFindings(f, RULE);
let held;
if (hold.withForecastFindings !== undefined) held = hold.withForecastFindings(plan, judged); // a build before the one-project re-check
else {
  const byAddress = hold.findingsByAddress(judged);
  held = { ...plan, projects: plan.projects.map((p) => hold.forecastHolds(p, byAddress.get(p.address) ?? [])), diagnostics: [...plan.diagnostics, ...hold.forecastPlanDiagnostics(judged)] };
}
const t4 = performance.now();
const cpu3 = process.cpuUsage();
console.log(JSON.stringify({
  import_ms: t1 - t0,
  core_ms: t3 - t2,
  run_ms: t4 - t2,
  total_ms: t1 - t0 + (t4 - t2),
  cpu_import_ms: (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1000,
  cpu_run_ms: (cpu3.user + cpu3.system - cpu2.user - cpu2.system) / 1000,
  cpu_core_ms: (cpuCore.user + cpuCore.system - cpu2.user - cpu2.system) / 1000,
  cpu_views_ms: (cpuViews.user + cpuViews.system - cpuCore.user - cpuCore.system) / 1000,
  cpu_findings_ms: (cpu3.user + cpu3.system - cpuViews.user - cpuViews.system) / 1000,
  paused: f.projects.filter((p) => p.pause !== null).length,
  held: held.projects.filter((p) => p.actions.some((a) => a.status === "blocked")).length,
}));
`;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const loadBefore = load();
const runs = Object.fromEntries(WAYS.map((w) => [w, []]));
for (let i = 0; i < RUNS; i++) {
  // Which way goes first alternates, so neither always runs right after the other.
  for (const way of i % 2 === 0 ? WAYS : [...WAYS].reverse()) {
    const out = spawnSync(process.execPath, ["--input-type=module", "-e", childOf(way)], {
      encoding: "utf8",
      cwd: fileURLToPath(new URL(".", import.meta.url)),
    });
    if (out.status !== 0) throw new Error(`${way}: the child failed:\n${out.stderr}`);
    const run = JSON.parse(out.stdout);
    run.cpu_ms = run.cpu_import_ms + run.cpu_run_ms;
    runs[way].push(run);
  }
}
if (bundleDir !== null) rmSync(bundleDir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x) => Number(x.toFixed(1));
/** The medians (and maxima) of one way's runs. */
function summary(list) {
  const stat = (key) => ({
    median: f(median(list.map((r) => r[key]))),
    max: f(Math.max(...list.map((r) => r[key]))),
  });
  const keys = ["total_ms", "import_ms", "run_ms", "core_ms", "cpu_ms", "cpu_import_ms", "cpu_run_ms"];
  const parts = ["cpu_core_ms", "cpu_views_ms", "cpu_findings_ms"];
  return {
    ...Object.fromEntries([...keys, ...parts].map((k) => [k, stat(k)])),
    ratio: Number((median(list.map((r) => r.total_ms)) / FLOOR_MS).toFixed(2)),
    cpu_ratio: Number((median(list.map((r) => r.cpu_ms)) / FLOOR_MS).toFixed(2)),
    paused: list[0].paused,
    held: list[0].held,
  };
}
const result = {
  bench: "forecast-cold",
  projects: N,
  processes: RUNS,
  build: fileURLToPath(distDir),
  plan_modules_timed: withPlan,
  floor_ms: FLOOR_MS,
  ...Object.fromEntries(WAYS.map((w) => [w, summary(runs[w])])),
  machine: `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, node ${process.version}`,
  load_before: loadBefore,
  load_after: load(),
};
console.log(JSON.stringify(result, null, 2));
if (median(runs[WAYS[0]].map((r) => r.total_ms)) >= FLOOR_MS) process.exitCode = 1;
