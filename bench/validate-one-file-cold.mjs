#!/usr/bin/env node
/**
 * `campaignctl validate` of one small example file, start to exit, against `node -e 0` (issue 36;
 * not a test; run after `npm run build`): what a user waits for on a small repository is mostly
 * start-up. Interleaved pairs (which goes first alternates): `node -e 0`, then `node
 * dist/cli/main.js validate examples/gotv.yaml` (text output, exit 0 expected), each a fresh
 * process. Per run: wall time, and CPU time (user + system of the child, from this process's
 * /proc/self/stat `cutime`/`cstime`, 10 ms ticks), which a loaded machine distorts less. Then one
 * more run of validate with a module-load hook (--import, as test/cli/lazy-commands.test.ts does)
 * counts the modules it loads, by package. Target: median wall ratio <= 2; exit 1 otherwise.
 *
 *   node bench/validate-one-file-cold.mjs                         # 15 pairs, examples/gotv.yaml
 *   node bench/validate-one-file-cold.mjs 31 examples/volunteers.yaml
 *   BENCH_CLI=/other/dist/cli/main.js node bench/validate-one-file-cold.mjs   # another build
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const PAIRS = Number(process.argv[2] ?? 15);
const root = fileURLToPath(new URL("..", import.meta.url));
const file = process.argv[3] ?? "examples/gotv.yaml";
const cli = process.env.BENCH_CLI ?? join(root, "dist/cli/main.js");
const TARGET_RATIO = 2;

/** User + system CPU of this process's waited-for children so far, in ms (Linux). */
function childrenCpuMs() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  // After "pid (comm) ": cutime is field 13, cstime field 14 (clock ticks, 100 a second).
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

function timed(args, env = {}) {
  const cpu0 = childrenCpuMs();
  const t0 = process.hrtime.bigint();
  const child = spawnSync(process.execPath, args, {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (child.status !== 0) throw new Error(`${args.join(" ")} exited ${child.status}: ${child.stderr}`);
  return { wallMs, cpuMs: childrenCpuMs() - cpu0, stderr: child.stderr };
}

/** The modules `validate` loads: ES modules through a load hook, CommonJS from require.cache on exit. */
function modulesLoaded() {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-bench-modules-"));
  try {
    const log = join(dir, "loads.log");
    writeFileSync(log, "");
    writeFileSync(
      join(dir, "hook.mjs"),
      `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (!url.startsWith("node:")) appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}
`,
    );
    writeFileSync(
      join(dir, "preload.mjs"),
      `import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
register("./hook.mjs", import.meta.url);
const cache = createRequire(import.meta.url).cache;
process.on("exit", () => appendFileSync(${JSON.stringify(log)}, Object.keys(cache).join("\\n") + "\\n"));
`,
    );
    // With CAMPAIGNCTL_DEBUG=1 the bin says whether validate ran from its code-cached bundle (Node
    // 20: cli/lifecycle/code-cache.ts), which no load hook sees: its modules are those esbuild put in
    // it (dist/bundle-meta.json).
    const { stderr } = timed(
      ["--import", pathToFileURL(join(dir, "preload.mjs")).href, cli, "validate", file],
      {
        CAMPAIGNCTL_DEBUG: "1",
      },
    );
    const paths = new Set(
      readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => (line.startsWith("file:") ? fileURLToPath(line) : line)),
    );
    // By package or folder, relative to the build's own root (dist/cli/main.js three levels down).
    const buildRoot = join(cli, "../../..");
    const cache = /code cache (.+)$/m.exec(stderr)?.[1] ?? "not used";
    if (cache !== "not used") {
      const meta = JSON.parse(readFileSync(join(buildRoot, "dist/bundle-meta.json"), "utf8"));
      const inputs = meta.outputs["dist/cli/code-cache/validate.js"]?.inputs ?? {};
      for (const input of Object.keys(inputs)) paths.add(join(buildRoot, input));
    }
    const groups = {};
    for (const path of paths) {
      const rel = relative(path.includes("/node_modules/") ? root : buildRoot, path);
      const group = rel.split("/").slice(0, 2).join("/"); // node_modules/yaml, dist/src, dist/cli
      groups[group] = (groups[group] ?? 0) + 1;
    }
    return {
      code_cache: cache,
      total: paths.size,
      groups: Object.fromEntries(Object.entries(groups).sort((a, b) => b[1] - a[1])),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const loadBefore = load();
const floor = [];
const validate = [];
for (let pair = 0; pair < PAIRS; pair++) {
  const runs = [() => floor.push(timed(["-e", "0"])), () => validate.push(timed([cli, "validate", file]))];
  if (pair % 2 === 1) runs.reverse();
  for (const run of runs) run();
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratios = floor.map((f, i) => validate[i].wallMs / f.wallMs);
const f1 = (x) => Number(x.toFixed(1));
const result = {
  bench: "validate-one-file-cold",
  file,
  pairs: PAIRS,
  // CPU: the median (of 10 ms ticks) and the mean, which ticks blur less.
  node_e_0: {
    wall_ms: f1(median(floor.map((r) => r.wallMs))),
    cpu_ms: median(floor.map((r) => r.cpuMs)),
    cpu_ms_mean: f1(mean(floor.map((r) => r.cpuMs))),
  },
  validate: {
    wall_ms: f1(median(validate.map((r) => r.wallMs))),
    cpu_ms: median(validate.map((r) => r.cpuMs)),
    cpu_ms_mean: f1(mean(validate.map((r) => r.cpuMs))),
  },
  ratio_median: Number(median(ratios).toFixed(2)),
  ratio_range: [Number(Math.min(...ratios).toFixed(2)), Number(Math.max(...ratios).toFixed(2))],
  cpu_ratio: Number(
    (median(validate.map((r) => r.cpuMs)) / Math.max(1, median(floor.map((r) => r.cpuMs)))).toFixed(2),
  ),
  cpu_ratio_mean: Number((mean(validate.map((r) => r.cpuMs)) / mean(floor.map((r) => r.cpuMs))).toFixed(2)),
  modules: modulesLoaded(),
  machine: `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, node ${process.version}`,
  // Node parses this certificate bundle at every start (about 45 ms of CPU here), the floor's too:
  // it halves the ratio. `env -u NODE_EXTRA_CA_CERTS node bench/...` measures without it.
  node_extra_ca_certs: process.env.NODE_EXTRA_CA_CERTS === undefined ? "unset" : "set",
  load_before: loadBefore,
  load_after: load(),
};
console.log(JSON.stringify(result, null, 2));
if (result.ratio_median > TARGET_RATIO) process.exitCode = 1;
