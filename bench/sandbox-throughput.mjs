// Throughput of the sandbox over time against its floor (issue 36): concurrent GET /v1/projects/{id}
// over loopback, rate limits off, the sandbox and the floor (bench/sandbox-floor.mjs, a bare
// node:http server sending the sandbox's own answer bytes) each in its own child process for the
// whole run, the same undici client here. Interleaved slices (sandbox, floor, floor, sandbox, ...),
// each pair's ratio printed as the run goes, so a sandbox that slows down as traffic accumulates
// shows as a falling ratio whatever the machine's load does.
//
// Run after `npm run build`:
//   node bench/sandbox-throughput.mjs [seconds=60] [slice-seconds=5] [concurrency=32]
//   node bench/sandbox-throughput.mjs 600          # the 10-minute run
//   BENCH_SANDBOX_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/sandbox-throughput.mjs
//                                                  # node flags for the sandbox child (a profile)
//
// Targets (exit 1 when missed): the median pair ratio of the first and of the last fifth of the run
// each at least 0.5, the last fifth's at least 0.8 x the first fifth's (flat), and no failed request.
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { median } from "./lib.mjs";

const seconds = Number(process.argv[2] ?? 60);
const sliceSeconds = Number(process.argv[3] ?? 5);
const concurrency = Number(process.argv[4] ?? 32);
const RATIO_TARGET = 0.5;
const FLAT_TARGET = 0.8;
const PROJECT = "9a000000-0000-4000-8000-000000000001";
const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const floorScript = fileURLToPath(new URL("./sandbox-floor.mjs", import.meta.url));

/** Spawns `args` with node; resolves with the child and its first stdout line parsed as JSON. */
function startChild(args) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code} before listening`)));
    child.stdout.on("data", function onData(chunk) {
      buffered += chunk;
      const end = buffered.indexOf("\n");
      if (end < 0) return;
      child.stdout.off("data", onData);
      child.stdout.resume();
      resolve({ child, info: JSON.parse(buffered.slice(0, end)) });
    });
  });
}

/** CPU seconds (user + system) and resident MiB of a child, from /proc (null elsewhere). */
function usage(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return { cpu: ticks / 100, rssMiB: rss ? Number(rss[1]) / 1024 : null };
  } catch {
    return { cpu: null, rssMiB: null };
  }
}

/** Loads `url` from `concurrency` connections for `ms`; counts 200s and anything else. */
async function slice(url, key, dispatcher, ms) {
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  const deadline = started + ms;
  async function worker() {
    while (performance.now() < deadline) {
      const res = await request(url, { headers: { "x-api-key": key }, dispatcher });
      await res.body.text();
      if (res.statusCode === 200) ok += 1;
      else failed += 1;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ok, failed, rps: ok / ((performance.now() - started) / 1000) };
}

const nodeArgs = (process.env.BENCH_SANDBOX_NODE_ARGS ?? "").split(" ").filter(Boolean);
const sandbox = await startChild([...nodeArgs, cli, "sandbox", "--port", "0", "--json", "--no-rate-limits"]);
const key = sandbox.info.keys.find((k) => k.type === "read-write").key;
const sandboxUrl = `${sandbox.info.base_url}/projects/${PROJECT}`;
const probe = await request(sandboxUrl, { headers: { "x-api-key": key } });
const headers = { ...probe.headers };
for (const hop of ["connection", "keep-alive", "transfer-encoding"]) delete headers[hop];
const answerFile = join(tmpdir(), `sandbox-floor-${process.pid}.json`);
writeFileSync(
  answerFile,
  JSON.stringify({ status: probe.statusCode, headers, body: await probe.body.text() }),
);
const floor = await startChild([floorScript, answerFile]);
const floorUrl = `${floor.info.url}/v1/projects/${PROJECT}`;
const agents = {
  sandbox: new Agent({ connections: concurrency }),
  floor: new Agent({ connections: concurrency }),
};

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, node ${process.version}, load ${load()}; ` +
    `${seconds} s in ${sliceSeconds} s slices, ${concurrency} connections`,
);
// Warm-up, not counted: both servers and the client compiled hot before the first pair.
for (const [url, agent] of [
  [sandboxUrl, agents.sandbox],
  [floorUrl, agents.floor],
])
  await slice(url, key, agent, 2_000);
const pairs = [];
let failed = 0;
const started = performance.now();
for (let i = 0; (performance.now() - started) / 1000 < seconds; i++) {
  const order = i % 2 === 0 ? ["sandbox", "floor"] : ["floor", "sandbox"];
  const result = {};
  for (const target of order) {
    const url = target === "sandbox" ? sandboxUrl : floorUrl;
    result[target] = await slice(url, key, agents[target], sliceSeconds * 1000);
    failed += result[target].failed;
  }
  const at = (performance.now() - started) / 1000;
  const ratio = result.sandbox.rps / result.floor.rps;
  const sb = usage(sandbox.child.pid);
  pairs.push({ at, ratio, sandbox: result.sandbox.rps, floor: result.floor.rps });
  console.log(
    `t=${at.toFixed(0).padStart(4)} s  sandbox ${result.sandbox.rps.toFixed(0).padStart(5)}/s  floor ${result.floor.rps
      .toFixed(0)
      .padStart(
        5,
      )}/s  ratio ${ratio.toFixed(2)}  sandbox rss ${sb.rssMiB?.toFixed(0) ?? "?"} MiB  load ${load()}`,
  );
}

for (const agent of Object.values(agents)) await agent.close();
const sandboxCpu = usage(sandbox.child.pid).cpu;
const served = pairs.reduce((n, p) => n + p.sandbox * sliceSeconds, 0);
sandbox.child.kill("SIGINT");
floor.child.kill("SIGTERM");
rmSync(answerFile, { force: true });

const fifth = Math.max(1, Math.round(pairs.length / 5));
const first = median(pairs.slice(0, fifth).map((p) => p.ratio));
const last = median(pairs.slice(-fifth).map((p) => p.ratio));
const verdict = first >= RATIO_TARGET && last >= RATIO_TARGET && last >= FLAT_TARGET * first && failed === 0;
console.log(
  JSON.stringify({
    bench: "sandbox-throughput",
    route: "GET /v1/projects/{id}",
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    pairs: pairs.length,
    sandbox_requests: Math.round(served),
    sandbox_cpu_ms_per_1000: sandboxCpu === null ? null : Math.round((sandboxCpu * 1e6) / served),
    failed,
    ratio_first_fifth: Number(first.toFixed(2)),
    ratio_last_fifth: Number(last.toFixed(2)),
    ratio_min: Number(Math.min(...pairs.map((p) => p.ratio)).toFixed(2)),
    sandbox_rps_first_last: [pairs[0].sandbox, pairs.at(-1).sandbox].map(Math.round),
    floor_rps_median: Math.round(median(pairs.map((p) => p.floor))),
    load: load(),
    verdict: verdict ? "met" : "missed",
  }),
);
if (!verdict) process.exitCode = 1;
