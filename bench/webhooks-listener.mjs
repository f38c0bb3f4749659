#!/usr/bin/env node
/**
 * Throughput and acknowledgement latency of `campaignctl webhooks listen` with durability on (not a
 * test; run after `npm run build`; issues 18 and 23): each delivery is answered only after its
 * event is written and flushed (fdatasync) to the record and printed, one flush per batch of the
 * deliveries that arrived during the previous flush (group commit).
 *
 * Starts the built CLI's listener as a child process (`dist/cli/main.js webhooks listen --port 0
 * --json`, a temp `--state`, the secret in an environment variable), then POSTs N signed deliveries
 * (bodies shaped like the sandbox's `message.sent` events, each its own message and event id,
 * X-Timestamp the real now) over loopback with C concurrent undici connections. Measured:
 *
 * - ack latency: from a request's start to the end of its answer (which comes after the flush),
 *   p50, p99 and max over all N (of the last attempt, see below);
 * - verified events per second: N divided by the time from the first request to the N-th `accepted`
 *   line on the child's stdout (each event verified, deduplicated, appended to the dedupe record on
 *   disk and printed), so the queued work is counted, not only the answers.
 *
 * With `forward`, the listener also forwards every event to a loopback handler in this process
 * (answering 200), and the time runs to the N-th `forwarded` line. When the work lags behind the
 * answers long enough for the listener's queue to fill (10,000 events), it answers 503 and this
 * client retries that delivery 20 ms later, as the API's sender would (later); retries are counted. Bounded in count (at most 200,000
 * deliveries). Exits 1 when a delivery is not answered 200 or not accepted, when the listener's
 * totals disagree, or below the targets: 2,000 verified events per second and an ack p99 under 10 ms
 * (issue 23). The machine's load (os.loadavg) before and after is part of the result.
 *
 *   node bench/webhooks-listener.mjs                  # 20000 deliveries, 32 connections
 *   node bench/webhooks-listener.mjs 50000 64         # other count and concurrency
 *   node bench/webhooks-listener.mjs 20000 32 forward # with --forward-to a loopback handler
 *
 * Until `webhooks` is registered in cli/program.ts, the child runs the same built command module
 * (`dist/cli/commands/webhooks-listen.js`, `runWebhooksListen` with the process's terminal and
 * Ctrl-C) through a one-line entry; the `via` field of the result says which ran.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { listenFlags } from "./lib.mjs";
import { BENCH_SECRET, sendAll, signedDeliveries } from "./webhooks-load.mjs";

const total = Math.min(Number(process.argv[2] ?? 20_000), 200_000);
const concurrency = Number(process.argv[3] ?? 32);
const forward = process.argv[4] === "forward";
const TARGET_EVENTS_PER_SECOND = 2000;
const TARGET_P99_MS = 10;
const loadBefore = loadavg()
  .map((l) => l.toFixed(2))
  .join(", ");

/**
 * The disk's own cost, measured first on the same file system: 200 appends of one line, each
 * flushed (fdatasync). No acknowledgement can come sooner than one such flush after its delivery.
 */
function flushLatency() {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-bench-fsync-"));
  const fd = openSync(join(dir, "probe"), "a");
  const times = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    writeSync(fd, `${"x".repeat(600)}\n`);
    fdatasyncSync(fd);
    times.push(performance.now() - t0);
  }
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
  times.sort((x, y) => x - y);
  const at = (q) => Number(times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)].toFixed(2));
  return { p50: at(0.5), p99: at(0.99) };
}
const fsyncMs = flushLatency();
const SECRET = BENCH_SECRET;

const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const command = fileURLToPath(new URL("../dist/cli/commands/webhooks-listen.js", import.meta.url));
const sandboxCommand = fileURLToPath(new URL("../dist/cli/commands/sandbox.js", import.meta.url));
const io = fileURLToPath(new URL("../dist/cli/output/io.js", import.meta.url));
const stateDir = mkdtempSync(join(tmpdir(), "campaignctl-bench-webhooks-"));

/** The forward handler: answers 200 to everything, counting. */
let handled = 0;
const handler = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    handled += 1;
    res.writeHead(200).end("ok");
  });
});
if (forward) await new Promise((resolve) => handler.listen(0, "127.0.0.1", resolve));

const flags = listenFlags(stateDir, "BENCH_WEBHOOK_SECRET");
if (forward) flags.push("--forward-to", `http://127.0.0.1:${handler.address().port}/hooks`);
const registered = /^\s+webhooks\b/m.test(
  spawnSync(process.execPath, [cli, "--help"], { encoding: "utf8" }).stdout,
);
const via = registered
  ? "campaignctl webhooks listen (dist/cli/main.js)"
  : "dist/cli/commands/webhooks-listen.js (runWebhooksListen)";
const entry = `
import { runWebhooksListen } from ${JSON.stringify(command)};
import { stopSignal } from ${JSON.stringify(sandboxCommand)};
import { processIo } from ${JSON.stringify(io)};
const [port, host, state, secret, forwardTo] = JSON.parse(process.argv[1]);
const outcome = await runWebhooksListen({ port: Number(port), host, json: true, state, secretEnv: [secret], forwardTo: forwardTo ?? undefined }, processIo(), stopSignal());
process.exitCode = outcome.kind === "success" ? 0 : 1;
`;
const args = registered
  ? [cli, "webhooks", "listen", ...flags]
  : [
      "--input-type=module",
      "-e",
      entry,
      JSON.stringify([
        "0",
        "127.0.0.1",
        stateDir,
        "BENCH_WEBHOOK_SECRET",
        forward ? `http://127.0.0.1:${handler.address().port}/hooks` : undefined,
      ]),
    ];
const child = spawn(process.execPath, args, {
  env: { ...process.env, BENCH_WEBHOOK_SECRET: SECRET, NO_COLOR: "1" },
  stdio: ["ignore", "pipe", "inherit"],
});

const lines = createInterface({ input: child.stdout });
let url;
let accepted = 0;
let forwarded = 0;
let lastAt = 0;
let stopped;
const listening = new Promise((resolve) => {
  lines.on("line", (text) => {
    let line;
    try {
      line = JSON.parse(text);
    } catch {
      console.error(text); // not a line of the listener: an error document, shown as it is
      return;
    }
    if (line.type === "listening") {
      url = line.url;
      resolve();
    } else if (line.type === "accepted") {
      accepted += 1;
      if (!forward && accepted === total) lastAt = performance.now();
    } else if (line.type === "forwarded") {
      forwarded += line.ok ? 1 : 0;
      if (forward && forwarded === total) lastAt = performance.now();
    } else if (line.type === "stopped") stopped = line;
  });
});
const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
await Promise.race([listening, exited]);
if (url === undefined) {
  console.error("the listener did not start");
  process.exit(1);
}

const deliveries = signedDeliveries(total);
const started = performance.now();
const { latencies, failed, retries } = await sendAll(url, deliveries, concurrency);
const answeredAt = performance.now();
// The queued work finishes after the answers: wait for the last line (bounded: 120 s).
for (let waited = 0; lastAt === 0 && waited < 120_000; waited += 20)
  await new Promise((r) => setTimeout(r, 20));
child.kill("SIGINT");
const code = await exited;
if (forward) handler.close();
if (!process.env.BENCH_KEEP) rmSync(stateDir, { recursive: true, force: true });

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const seconds = ((lastAt || performance.now()) - started) / 1000;
const eventsPerSecond = Math.round(total / seconds);
const result = {
  bench: "webhooks-listener",
  via,
  forward,
  deliveries: total,
  answered_200: total - failed,
  retries_after_503: retries,
  accepted,
  forwarded: forward ? forwarded : null,
  seconds: Number(seconds.toFixed(2)),
  acks_per_second: Math.round(total / ((answeredAt - started) / 1000)),
  verified_events_per_second: eventsPerSecond,
  ack_ms: {
    p50: Number(pct(50).toFixed(2)),
    p99: Number(pct(99).toFixed(2)),
    max: Number(sorted.at(-1).toFixed(2)),
  },
  listener_totals: stopped ?? null,
  listener_exit: code,
  concurrency,
  node: process.version,
  cpu: cpus()[0]?.model,
  cores: cpus().length,
  load_before: loadBefore,
  fdatasync_ms: fsyncMs,
  load_after: loadavg()
    .map((l) => l.toFixed(2))
    .join(", "),
  date: new Date().toISOString(),
};
console.log(JSON.stringify(result));
const consistent =
  failed === 0 &&
  accepted === total &&
  (!forward || (forwarded === total && handled === total)) &&
  stopped?.accepted === total &&
  stopped?.rejected === retries &&
  code === 0;
if (!consistent) console.error("the listener did not accept and report every delivery exactly once");
if (!consistent || eventsPerSecond < TARGET_EVENTS_PER_SECOND || pct(99) >= TARGET_P99_MS)
  process.exitCode = 1;
