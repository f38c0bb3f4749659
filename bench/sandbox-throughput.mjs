// Throughput of the sandbox over time against its floor (issue 36): concurrent GET /v1/projects/{id}
// over loopback, rate limits off, against the sandbox and against the floor (bench/sandbox-floor.mjs,
// a bare node:http server sending the sandbox's own answer bytes), with the same undici client.
// Interleaved slices (sandbox, floor, floor, sandbox, ...), each pair's ratio printed as the run
// goes, so a sandbox that slows down as traffic accumulates shows as a falling ratio whatever the
// machine's load does. Both servers live for the whole run.
//
// Two layouts:
//   (default)     the sandbox (`campaignctl sandbox`) and the floor each in its own child process,
//                 the client here: the servers' own cost, CPU per request measured from /proc;
//   --in-process  the client, the sandbox (startSandbox) and the floor in this one process, as
//                 issue 36 measured it (the client's cost is in both sides of the ratio).
//
// Run after `npm run build`:
//   node bench/sandbox-throughput.mjs [seconds=60] [slice-seconds=5] [concurrency=32] [--in-process]
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
import { serveFloor } from "./sandbox-floor.mjs";

const inProcess = process.argv.includes("--in-process");
const [seconds = 60, sliceSeconds = 5, concurrency = 32] = process.argv
  .slice(2)
  .filter((a) => !a.startsWith("--"))
  .map(Number);
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

/** CPU seconds (user + system) and resident MiB of a process, from /proc (nulls elsewhere). */
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

/** The answer the floor serves: the sandbox's own status, headers and body for the project. */
async function answerOf(url, key) {
  const probe = await request(url, { headers: { "x-api-key": key } });
  const headers = { ...probe.headers };
  for (const hop of ["connection", "keep-alive", "transfer-encoding"]) delete headers[hop];
  return { status: probe.statusCode, headers, body: await probe.body.text() };
}

/** Both servers: URLs, the key, the process ids whose CPU is measured (null: this process), a stop. */
async function startTargets() {
  if (inProcess) {
    const { startSandbox } = await import("../dist/src/sandbox/index.js");
    const sb = await startSandbox({ rateLimits: false, start: new Date(), timeScale: 1 });
    const key = sb.keys.find((k) => k.type === "read-write").key;
    const sandboxUrl = `${sb.baseUrl}/projects/${PROJECT}`;
    const floor = await serveFloor(await answerOf(sandboxUrl, key));
    return {
      key,
      sandboxUrl,
      floorUrl: `${floor.url}/v1/projects/${PROJECT}`,
      pids: null,
      stop: async () => {
        await sb.close();
        floor.server.closeAllConnections();
        floor.server.close();
      },
    };
  }
  const nodeArgs = (process.env.BENCH_SANDBOX_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const sandbox = await startChild([
    ...nodeArgs,
    cli,
    "sandbox",
    "--port",
    "0",
    "--json",
    "--no-rate-limits",
  ]);
  const key = sandbox.info.keys.find((k) => k.type === "read-write").key;
  const sandboxUrl = `${sandbox.info.base_url}/projects/${PROJECT}`;
  const answerFile = join(tmpdir(), `sandbox-floor-${process.pid}.json`);
  writeFileSync(answerFile, JSON.stringify(await answerOf(sandboxUrl, key)));
  const floor = await startChild([floorScript, answerFile]);
  rmSync(answerFile, { force: true });
  return {
    key,
    sandboxUrl,
    floorUrl: `${floor.info.url}/v1/projects/${PROJECT}`,
    pids: { sandbox: sandbox.child.pid, floor: floor.child.pid },
    stop: async () => {
      sandbox.child.kill("SIGINT");
      floor.child.kill("SIGTERM");
    },
  };
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

const targets = await startTargets();
const { key } = targets;
const url = { sandbox: targets.sandboxUrl, floor: targets.floorUrl };
const agents = {
  sandbox: new Agent({ connections: concurrency }),
  floor: new Agent({ connections: concurrency }),
};
const cpuOf = (target) => (targets.pids === null ? null : usage(targets.pids[target]).cpu);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, node ${process.version}, load ${load()}; ` +
    `${seconds} s in ${sliceSeconds} s slices, ${concurrency} connections, ${inProcess ? "one process" : "servers in their own processes"}`,
);
// Warm-up, not counted: both servers and the client compiled hot before the first pair.
for (const target of ["sandbox", "floor"]) await slice(url[target], key, agents[target], 2_000);

const pairs = [];
const served = { sandbox: 0, floor: 0 };
const cpuAtStart = { sandbox: cpuOf("sandbox"), floor: cpuOf("floor") };
let failed = 0;
const started = performance.now();
for (let i = 0; (performance.now() - started) / 1000 < seconds; i++) {
  const order = i % 2 === 0 ? ["sandbox", "floor"] : ["floor", "sandbox"];
  const result = {};
  for (const target of order) {
    result[target] = await slice(url[target], key, agents[target], sliceSeconds * 1000);
    failed += result[target].failed;
    served[target] += result[target].ok;
  }
  const at = (performance.now() - started) / 1000;
  const ratio = result.sandbox.rps / result.floor.rps;
  const rss = targets.pids === null ? null : usage(targets.pids.sandbox).rssMiB;
  pairs.push({ at, ratio, sandbox: result.sandbox.rps, floor: result.floor.rps });
  console.log(
    `t=${at.toFixed(0).padStart(4)} s  sandbox ${result.sandbox.rps.toFixed(0).padStart(5)}/s  floor ${result.floor.rps
      .toFixed(0)
      .padStart(5)}/s  ratio ${ratio.toFixed(2)}  sandbox rss ${rss?.toFixed(0) ?? "-"} MiB  load ${load()}`,
  );
}

for (const agent of Object.values(agents)) await agent.close();
/** CPU milliseconds per 1,000 requests served by `target` during the pairs (null in one process). */
const cpuPer1000 = (target) => {
  const end = cpuOf(target);
  const start = cpuAtStart[target];
  return end === null || start === null ? null : Math.round(((end - start) * 1e6) / served[target]);
};
const cpuMs = { sandbox: cpuPer1000("sandbox"), floor: cpuPer1000("floor") };
await targets.stop();

const fifth = Math.max(1, Math.round(pairs.length / 5));
const first = median(pairs.slice(0, fifth).map((p) => p.ratio));
const last = median(pairs.slice(-fifth).map((p) => p.ratio));
const verdict = first >= RATIO_TARGET && last >= RATIO_TARGET && last >= FLAT_TARGET * first && failed === 0;
console.log(
  JSON.stringify({
    bench: "sandbox-throughput",
    route: "GET /v1/projects/{id}",
    layout: inProcess ? "one-process" : "own-processes",
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    pairs: pairs.length,
    sandbox_requests: served.sandbox,
    failed,
    ratio_first_fifth: Number(first.toFixed(2)),
    ratio_last_fifth: Number(last.toFixed(2)),
    ratio_median: Number(median(pairs.map((p) => p.ratio)).toFixed(2)),
    ratio_min: Number(Math.min(...pairs.map((p) => p.ratio)).toFixed(2)),
    sandbox_rps_first_last_fifth: [
      median(pairs.slice(0, fifth).map((p) => p.sandbox)),
      median(pairs.slice(-fifth).map((p) => p.sandbox)),
    ].map(Math.round),
    floor_rps_median: Math.round(median(pairs.map((p) => p.floor))),
    cpu_ms_per_1000_requests: cpuMs,
    load: load(),
    verdict: verdict ? "met" : "missed",
  }),
);
if (!verdict) process.exitCode = 1;
