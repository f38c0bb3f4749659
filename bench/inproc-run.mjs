// CPU of ONE in-process command run on the example campaign (examples/gotv.yaml and its policy)
// against an in-process sandbox: what every in-process test of the suite pays per `runCli` call
// (issue 35, point 9). Each command runs WARM times, then RUNS times measured with
// process.cpuUsage (this process: CLI and sandbox). The sandbox's virtual clock moves a minute
// between runs (its rate-limit windows never fill). Uses the built CLI (`npm run build`).
// Usage: node bench/inproc-run.mjs [ROOT]  (ROOT: a directory holding dist/ and examples/)
// Env: RUNS (default 60), ONLY=<command name>. Not part of campaignctl.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = resolve(process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url)));
const { run } = await import(join(root, "dist/cli/lifecycle/run.js"));
const { startSandbox } = await import(join(root, "dist/src/sandbox/index.js"));
const example = (file) => readFileSync(join(root, "examples", file));
// Not under /tmp: policy discovery lists every directory above the files (a crowded /tmp costs ms).
const dir = mkdtempSync(join(process.env.CAMPAIGNCTL_BENCH_TMP ?? "/var/tmp", "campaignctl-inproc-"));
mkdirSync(join(dir, ".git"));
mkdirSync(join(dir, "campaign"));
writeFileSync(join(dir, "campaign/gotv.yaml"), example("gotv.yaml"));
writeFileSync(join(dir, "campaignctl.policy.yaml"), example("campaignctl.policy.yaml"));
const sb = await startSandbox({ fixture: parse(example("sandbox.yaml").toString()), rateLimits: false });
const io = () => ({
  stdout() {},
  stderr() {},
  stdoutIsTTY: false,
  stderrIsTTY: false,
  stdinIsTTY: false,
  env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: "pc_live_sbx_rv_rw_7Hq2mX9vT4" },
  cwd: dir,
  clock: () => sb.clock.nowMs(),
});
const api = ["--base-url", sb.baseUrl];
const commands = {
  validate: ["validate", "campaign", "--json"],
  preview: ["preview", "campaign", "--json"],
  plan: ["plan", "campaign", ...api, "--json"],
  status: ["status", "campaign", ...api, "--json"],
  replies: ["replies", "plan", "campaign", ...api, "--json"],
  watch: ["watch", "campaign", "--once", ...api, "--json"],
};
const RUNS = Number(process.env.RUNS ?? 60);
console.log(`root ${root}, load ${loadavg()[0].toFixed(2)}, ${RUNS} runs each`);
for (const [name, argv] of Object.entries(commands)) {
  if (process.env.ONLY !== undefined && process.env.ONLY !== name) continue;
  const once = async () => {
    const code = await run(argv, io());
    if (code !== 0) throw new Error(`${argv.join(" ")}: exit ${code}`);
    await sb.clock.advance(61_000);
  };
  for (let i = 0; i < 10; i++) await once();
  const before = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < RUNS; i++) await once();
  const cpu = process.cpuUsage(before);
  const ms = (cpu.user + cpu.system) / 1000 / RUNS;
  console.log(
    `${name.padEnd(9)} cpu ${ms.toFixed(2)} ms/run, wall ${((performance.now() - start) / RUNS).toFixed(2)} ms/run`,
  );
}
await sb.close();
rmSync(dir, { recursive: true, force: true });
