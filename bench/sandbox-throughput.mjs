// Throughput of the sandbox: concurrent GET /projects/{id} over loopback, rate limits off.
// Run after `npm run build`: node bench/sandbox-throughput.mjs [seconds=5] [concurrency=32]
// Bounded in count (at most 200,000 requests) and in time. Exits non-zero below 2,000 requests/s.
import { cpus } from "node:os";
import { Agent, request } from "undici";
import { startSandbox } from "../dist/src/sandbox/index.js";

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 32);
const MAX_REQUESTS = 200_000;
const TARGET = 2000;

const sb = await startSandbox({ rateLimits: false });
const key = sb.keys.find((k) => k.type === "read-write")?.key;
const url = `${sb.baseUrl}/projects/9a000000-0000-4000-8000-000000000001`;
const dispatcher = new Agent({ connections: concurrency, pipelining: 1 });
let done = 0;
let failed = 0;
const deadline = performance.now() + seconds * 1000;
const started = performance.now();
async function worker() {
  while (performance.now() < deadline && done + failed < MAX_REQUESTS) {
    const res = await request(url, { headers: { "x-api-key": key }, dispatcher });
    await res.body.text();
    if (res.statusCode === 200) done += 1;
    else failed += 1;
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
const elapsed = (performance.now() - started) / 1000;
await dispatcher.close();
await sb.close();
const rate = Math.round(done / elapsed);
console.log(
  JSON.stringify({
    bench: "sandbox-throughput",
    route: "GET /v1/projects/{id}",
    requests: done,
    failed,
    seconds: Number(elapsed.toFixed(2)),
    requests_per_second: rate,
    concurrency,
    node: process.version,
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    date: new Date().toISOString(),
  }),
);
if (rate < TARGET || failed > 0) process.exitCode = 1;
