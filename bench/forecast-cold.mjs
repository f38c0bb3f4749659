#!/usr/bin/env node
/**
 * Forecast of N scheduled projects in a cold process (issue 36; not a test; run after `npm run
 * build`): what the forecast adds to a `plan` run, which starts a fresh process each time. Each run
 * is a new `node` process that imports the forecast modules (the core, the JSON, Markdown and text
 * views, the policy findings and their holds in the plan) and runs them once on the input of
 * bench/forecast.mjs (forecast-input.mjs). Timed in the child: the imports plus the one run (the
 * input's own construction is left out), wall and CPU (process.cpuUsage: user + system, which a
 * loaded machine distorts far less). The floor is the goal itself, 100 ms; the ratio is the median
 * over it. Exit 1 when the median wall time is 100 ms or more.
 *
 *   node bench/forecast-cold.mjs              # 1000 projects, 15 processes
 *   node bench/forecast-cold.mjs 1000 31
 *   node bench/forecast-cold.mjs --with-plan  # the plan's own modules timed too
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
/**
 * --bundled: the six modules and what they import (luxon too) as one ES module made by esbuild with
 * the options of the bin's bundle (scripts/after-build.mjs: whitespace and syntax minified, Node 20),
 * as a `plan` run of the built bin loads them: one file read and compiled instead of 31 modules resolved.
 */
const bundled = process.argv.includes("--bundled");
const bundleDir = bundled ? mkdtempSync(join(tmpdir(), "forecast-cold-")) : null;
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
 * The child: imports, builds the input (not timed), runs once, prints its timings. The plan's own
 * module that the findings join (src/plan/forecast-hold.js, with the plan assembler it imports) is
 * loaded by every `plan` run with or without a forecast: imported before the clock starts, unless
 * WITH_PLAN (then timed too, the whole cost of a process that only forecasts).
 */
const withPlan = process.argv.includes("--with-plan") || bundled;
const planImport = `import(${dist("src/plan/forecast-hold.js")})`;
const imports =
  bundleUrl === null
    ? `await Promise.all([${MODULES.map((m) => `import(${dist(m)})`).join(", ")}])`
    : `Object.values(await import(${bundleUrl}))`;
const child = `
${withPlan ? "" : `await ${planImport};`}
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const [{ DEFAULT_CAPACITY, forecast }, { forecastJson }, { judgeFindings }, hold, { forecastMarkdown }, { forecastText }] = ${imports};
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
const runs = [];
for (let i = 0; i < RUNS; i++) {
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", child], {
    encoding: "utf8",
    cwd: fileURLToPath(new URL(".", import.meta.url)),
  });
  if (out.status !== 0) {
    console.error(out.stderr);
    process.exit(1);
  }
  const run = JSON.parse(out.stdout);
  run.cpu_ms = run.cpu_import_ms + run.cpu_run_ms;
  runs.push(run);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x) => Number(x.toFixed(1));
const stat = (key) => ({
  median: f(median(runs.map((r) => r[key]))),
  max: f(Math.max(...runs.map((r) => r[key]))),
});
const total = stat("total_ms");
const result = {
  bench: "forecast-cold",
  projects: N,
  processes: RUNS,
  plan_modules_timed: withPlan,
  bundled,
  total_ms: total,
  import_ms: stat("import_ms"),
  run_ms: stat("run_ms"),
  core_ms: stat("core_ms"),
  cpu_ms: stat("cpu_ms"),
  cpu_import_ms: stat("cpu_import_ms"),
  cpu_run_ms: stat("cpu_run_ms"),
  cpu_core_ms: stat("cpu_core_ms"),
  cpu_views_ms: stat("cpu_views_ms"),
  cpu_findings_ms: stat("cpu_findings_ms"),
  floor_ms: FLOOR_MS,
  ratio: Number((total.median / FLOOR_MS).toFixed(2)),
  cpu_ratio: Number((median(runs.map((r) => r.cpu_ms)) / FLOOR_MS).toFixed(2)),
  paused: runs[0].paused,
  held: runs[0].held,
  machine: `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, node ${process.version}`,
  load_before: loadBefore,
  load_after: load(),
};
if (bundleDir !== null) rmSync(bundleDir, { recursive: true, force: true });
console.log(JSON.stringify(result, null, 2));
if (total.median >= FLOOR_MS) process.exitCode = 1;
