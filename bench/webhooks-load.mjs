// What the webhook benches share (not part of campaignctl): the signed deliveries, the senders
// (C concurrent undici connections over loopback, a 503 retried 20 ms later as the API's sender
// would) and the start of a receiver as a child process. Used by webhooks-listener.mjs (the
// listener alone, issue 23's targets) and webhooks-floor.mjs (the listener against the floor,
// interleaved pairs, issue 36).
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { closeSync, openSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { Agent, request } from "undici";

/** The signing secret of every bench delivery (given to the receivers in an environment variable). */
export const BENCH_SECRET = "whsec_bench_0123456789abcdef0123";

/** N deliveries shaped like the sandbox's `message.sent` events, each its own message and event id, signed in advance. */
export function signedDeliveries(total, prefix = "evt_bench_") {
  return Array.from({ length: total }, (_, i) => {
    const body = JSON.stringify({
      message_id: `bench-${i}`,
      project_id: "9a000000-0000-4000-8000-000000000001",
      conversation_id: null,
      from: "+15035550101",
      to: `+1503555${String(i % 10000).padStart(4, "0")}`,
      status: "sent",
      error_code: null,
      segments: 1,
      sent_at: "2026-12-01T15:00:00.000Z",
      delivered_at: null,
      failed_at: null,
    });
    return {
      id: `${prefix}${i}`,
      body,
      signature: `sha256=${createHmac("sha256", BENCH_SECRET).update(body).digest("hex")}`,
    };
  });
}

/** A 503 (the listener's queue is full) is retried as the API's sender would, after a pause (bounded). */
const RETRY_PAUSE_MS = 20;
const MAX_ATTEMPTS = 500;

/**
 * Sends every delivery to `url` over `concurrency` connections, each answered before the next on
 * its connection. Latency: a request's start to the end of its answer (of the last attempt).
 */
export async function sendAll(url, deliveries, concurrency) {
  const dispatcher = new Agent({ connections: concurrency, pipelining: 1 });
  const latencies = new Float64Array(deliveries.length);
  let next = 0;
  let failed = 0;
  let retries = 0;
  const started = performance.now();
  async function worker() {
    for (let i = next++; i < deliveries.length; i = next++) {
      const d = deliveries[i];
      for (let attempt = 1; ; attempt++) {
        const t0 = performance.now();
        const res = await request(url, {
          method: "POST",
          dispatcher,
          headers: {
            "content-type": "application/json",
            "x-webhook-signature": d.signature,
            "x-event-type": "message.sent",
            "x-event-id": d.id,
            "x-timestamp": String(Math.floor(Date.now() / 1000)),
          },
          body: d.body,
        });
        await res.body.dump();
        latencies[i] = performance.now() - t0;
        if (res.statusCode === 503 && attempt < MAX_ATTEMPTS) {
          retries += 1;
          await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
          continue;
        }
        if (res.statusCode !== 200) failed += 1;
        break;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const answeredAt = performance.now();
  await dispatcher.close();
  return { latencies, failed, retries, started, answeredAt };
}

/** The q-th quantile (0 to 1) of `values` (a typed array or an array of numbers). */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** `os.loadavg()` as the README writes it. */
export function load() {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}

/**
 * Starts `args` (node's own arguments) as a child whose first stdout line is a JSON object with
 * `url`; the secret in BENCH_WEBHOOK_SECRET. Later lines are only counted (`lines()`), and the
 * last one kept (the listener's totals), so reading them costs the bench as little as it can.
 * With `stdoutFile`, the child's stdout is that file instead of a pipe to this process (as
 * `> events.jsonl` gives it): the child writes the same lines, and this process, which also sends
 * the load and times the answers, is not woken to read them; the file is read at the first line
 * and at the end.
 */
export async function startReceiver(args, { stdoutFile } = {}) {
  if (stdoutFile !== undefined) return startReceiverToFile(args, stdoutFile);
  const child = spawn(process.execPath, args, {
    env: { ...process.env, BENCH_WEBHOOK_SECRET: BENCH_SECRET, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let first = null;
  let head = "";
  let count = 0;
  let tail = "";
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = new Promise((resolve) => {
    child.stdout.on("data", (chunk) => {
      let text = chunk.toString("utf8");
      if (first === null) {
        head += text;
        const end = head.indexOf("\n");
        if (end < 0) return;
        first = JSON.parse(head.slice(0, end));
        text = head.slice(end + 1);
        resolve();
      }
      for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count += 1;
      tail = (tail + text).slice(-8192);
    });
  });
  await Promise.race([ready, exited]);
  if (first === null) throw new Error(`${args.join(" ")}: no first line`);
  return {
    url: first.url,
    /** The child's CPU time so far (user + system, ms; Linux, 10 ms ticks), or NaN where /proc is not. */
    cpuMs: () => cpuOf(child.pid),
    /** Lines after the first one so far. */
    lines: () => count,
    async stop() {
      child.kill("SIGINT");
      const code = await exited;
      return { code, last: tail.trimEnd().split("\n").at(-1) ?? "" };
    },
  };
}

/** {@link startReceiver} with the child's stdout a file (created or emptied), read every 5 ms until its first line. */
async function startReceiverToFile(args, path) {
  const fd = openSync(path, "w", 0o600);
  const child = spawn(process.execPath, args, {
    env: { ...process.env, BENCH_WEBHOOK_SECRET: BENCH_SECRET, NO_COLOR: "1" },
    stdio: ["ignore", fd, "inherit"],
  });
  closeSync(fd);
  let exitCode = null;
  const exited = new Promise((resolve) =>
    child.on("exit", (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const text = () => readFileSync(path, "utf8");
  let first = null;
  while (first === null && exitCode === null) {
    const now = text();
    const end = now.indexOf("\n");
    if (end < 0) await new Promise((resolve) => setTimeout(resolve, 5));
    else {
      try {
        first = JSON.parse(now.slice(0, end));
      } catch (error) {
        child.kill("SIGKILL");
        throw new Error(`${args.join(" ")}: the first line is not JSON: ${now.slice(0, end)}`, {
          cause: error,
        });
      }
    }
  }
  if (first === null) throw new Error(`${args.join(" ")}: no first line`);
  const lines = () => text().trimEnd().split("\n");
  return {
    url: first.url,
    cpuMs: () => cpuOf(child.pid),
    lines: () => lines().length - 1,
    async stop() {
      child.kill("SIGINT");
      const code = await exited;
      return { code, last: lines().at(-1) ?? "" };
    },
  };
}

/** User + system CPU time of process `pid` in ms, from /proc (NaN elsewhere). */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // After "pid (comm) ": state is field 0, utime field 11, stime field 12 (clock ticks, 100 a second).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
