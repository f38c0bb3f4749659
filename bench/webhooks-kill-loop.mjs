#!/usr/bin/env node
/**
 * SIGKILL loop for `campaignctl webhooks listen` (issue 23's acceptance; not a test itself:
 * test/webhooks/sigkill.test.ts runs it with 500 deliveries, this script with 5,000 by default).
 *
 * Runs the built CLI's listener as a child process (`--port 0 --json`, one `--state` for every
 * run), sends N signed deliveries over loopback with C concurrent senders (each delivery retried,
 * same event id and body, until it is answered 2xx: as the API's sender does), and kills the
 * listener with SIGKILL at seeded random moments: after a random number (0 to K) of deliveries
 * answered 2xx since it started, i.e. with deliveries in flight, events being flushed or printed.
 * Each time it is started again on the same state. At the end the last listener is stopped with
 * SIGTERM. Reported: every delivery answered 2xx must be in the record (`dedupe.jsonl`) and printed
 * (an `accepted` line) exactly once across all the runs' output, but for the one window
 * docs/webhooks.md names: a kill after a batch's lines were written and before its `printed` marker
 * prints them once more on the next start, marked `recovered` (counted apart: `printed_twice`).
 *
 *   node bench/webhooks-kill-loop.mjs                 # 5000 deliveries, 16 senders, seed 23
 *   node bench/webhooks-kill-loop.mjs 5000 32 7 120   # count, senders, seed, K
 *
 * Exits 1 when a delivery answered 2xx is missing from the record, not printed, or printed again
 * outside that window.
 */
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { seededRandom } from "../dist/src/sandbox/ids.js";
import { listenFlags } from "./lib.mjs";

export const KILL_LOOP_SECRET = "whsec_killloop_0123456789abcdef01";

function delivery(i) {
  const body = Buffer.from(
    JSON.stringify({
      message_id: `kill-${i}`,
      project_id: "9a000000-0000-4000-8000-000000000001",
      from: "+15035550101",
      to: "+15035550110",
      status: "delivered",
    }),
  );
  return { id: `evt_kill_${i}`, body };
}

function headersOf(d) {
  return {
    "content-type": "application/json",
    "x-webhook-signature": `sha256=${createHmac("sha256", KILL_LOOP_SECRET).update(d.body).digest("hex")}`,
    "x-event-type": "message.delivered",
    "x-event-id": d.id,
    "x-timestamp": String(Math.floor(Date.now() / 1000)),
  };
}

/**
 * Runs the loop. `cli`: the built dist/cli/main.js; `stateDir`: the listener's --state.
 * `env`: the listener's environment (default this process's); the secret and NO_COLOR are added.
 * Resolves with the ids answered 2xx, each run's stdout, and how many times the listener was killed.
 */
export async function runKillLoop({
  cli,
  stateDir,
  total,
  concurrency,
  seed,
  maxAcksBeforeKill,
  env = process.env,
}) {
  // The sandbox's one seeded generator: the kill moments are the same for one seed.
  const random = seededRandom(seed);
  const outputs = [];
  const acked = new Set();
  let kills = 0;
  let stopping = false;
  let current = null; // { child, url, ackedSinceStart, threshold }
  const upWaiters = [];
  let broken = null;
  const whenUp = () => {
    if (broken !== null) return Promise.reject(broken);
    return current?.url ? Promise.resolve(current) : new Promise((r, j) => upWaiters.push({ r, j }));
  };
  let exited = null;

  const start = () => {
    const child = spawn(
      process.execPath,
      [cli, "webhooks", "listen", ...listenFlags(stateDir, "KILL_LOOP_SECRET")],
      { env: { ...env, KILL_LOOP_SECRET, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    const run = {
      child,
      url: null,
      ackedSinceStart: 0,
      threshold: Math.floor(random() * (maxAcksBeforeKill + 1)),
      out: "",
      err: "",
    };
    current = run;
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (text) => {
      run.out += text;
      if (run.url === null) {
        const first = run.out.indexOf("\n");
        if (first === -1) return;
        run.url = JSON.parse(run.out.slice(0, first)).url;
        if (run.threshold === 0 && !stopping) return kill(run);
        for (const w of upWaiters.splice(0)) w.r(run);
      }
    });
    child.stderr.on("data", (text) => {
      run.err += text;
    });
    child.on("close", (code, signal) => {
      outputs.push({ stdout: run.out, stderr: run.err, code, signal });
      if (current === run) current = null;
      if (stopping) exited?.();
      else if (!run.killed) {
        // It stopped by itself: a crash or a refusal to start, not a kill. Stop the loop, say why.
        broken = new Error(`the listener exited by itself (code ${code}, signal ${signal}):\n${run.err}`);
        for (const w of upWaiters.splice(0)) w.j(broken);
      } else start();
    });
  };
  const kill = (run) => {
    if (run.killed) return;
    run.killed = true;
    run.url = null;
    kills += 1;
    run.child.kill("SIGKILL");
  };

  const started = performance.now();
  start();
  let next = 0;
  const agent = new Agent({ connections: concurrency, pipelining: 1 });
  const sender = async () => {
    for (let i = next++; i < total; i = next++) {
      const d = delivery(i);
      for (;;) {
        const run = await whenUp();
        try {
          const res = await request(run.url, {
            method: "POST",
            headers: headersOf(d),
            body: d.body,
            dispatcher: agent,
          });
          await res.body.dump();
          if (res.statusCode >= 200 && res.statusCode < 300) {
            acked.add(d.id);
            run.ackedSinceStart += 1;
            if (run.ackedSinceStart >= run.threshold && !stopping && next < total) kill(run);
            break;
          }
        } catch {
          // refused or reset: the listener was killed; the next one takes the retry
        }
        await new Promise((r) => setImmediate(r));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, sender));
  } catch (error) {
    stopping = true;
    current?.child.kill("SIGKILL");
    await agent.close();
    throw error;
  }
  const seconds = (performance.now() - started) / 1000;
  stopping = true;
  const last = await whenUp();
  await new Promise((resolve) => {
    exited = resolve;
    last.child.kill("SIGTERM");
  });
  await agent.close();
  return { acked: [...acked], outputs, kills, seconds };
}

/**
 * Checks a loop's result against the record: what was answered 2xx is recorded and printed, once
 * or, in the one window docs/webhooks.md names, twice (`repeatsOutsideWindow` lists any other repeat).
 */
export function checkKillLoop(result, recordText) {
  const recorded = new Set();
  for (const line of recordText.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line);
      if (value.t === undefined && typeof value.event_id === "string") recorded.add(value.event_id);
    } catch {
      // not a line of an event
    }
  }
  /** Each event's prints: the run, the line's index and the run's parsed lines. */
  const printed = new Map();
  let partialLines = 0;
  result.outputs.forEach(({ stdout }, run) => {
    const lines = stdout.split("\n");
    if (lines.at(-1) !== "") partialLines += 1;
    const values = lines.slice(0, -1).map((line) => JSON.parse(line));
    values.forEach((value, index) => {
      if (value.type !== "accepted") return;
      const prints = printed.get(value.event_id) ?? [];
      prints.push({ run, index, values });
      printed.set(value.event_id, prints);
    });
  });
  const missing = result.acked.filter((id) => !recorded.has(id));
  const notPrinted = result.acked.filter((id) => !printed.has(id));
  const printedTwice = [...printed].filter(([, prints]) => prints.length > 1).map(([id]) => id);
  const repeatsOutsideWindow = printedTwice.filter((id) => !inKillWindow(printed.get(id), result.outputs));
  return {
    acked: result.acked.length,
    recorded: recorded.size,
    missing,
    notPrinted,
    printedTwice,
    repeatsOutsideWindow,
    partialLines,
  };
}

/**
 * Whether an event's repeated prints are each the one repeat docs/webhooks.md allows: a run killed
 * after writing a batch's lines and before its `printed` marker (the print is in the last write of a
 * run that was killed: every line after it is an `accepted` line of the same batch, same `at`), and
 * the next run that prints anything it recovered printing it once more on start, marked
 * `recovered` (which a kill in the same window of that start may repeat again). A run between the
 * two was killed before it printed what it recovered (on its first line, as a supervisor may: it
 * printed no `accepted` line), so it repeated nothing.
 */
function inKillWindow(prints, outputs) {
  for (let i = 0; i + 1 < prints.length; i++) {
    const first = prints[i];
    const next = prints[i + 1];
    if (outputs[first.run].code !== null || next.run <= first.run) return false;
    for (let run = first.run + 1; run < next.run; run++)
      if (outputs[run].code !== null || printedAccepted(outputs[run].stdout)) return false;
    if (next.values[next.index].recovered !== true) return false;
    const at = first.values[first.index].at;
    if (!first.values.slice(first.index).every((value) => value.type === "accepted" && value.at === at))
      return false;
  }
  return true;
}

/** Whether a run's output holds an `accepted` line (whole lines only: the last may be cut short). */
function printedAccepted(stdout) {
  return stdout
    .split("\n")
    .slice(0, -1)
    .some((line) => JSON.parse(line).type === "accepted");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const total = Number(process.argv[2] ?? 5000);
  const concurrency = Number(process.argv[3] ?? 16);
  const seed = Number(process.argv[4] ?? 23);
  const maxAcksBeforeKill = Number(process.argv[5] ?? 120);
  const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
  const stateDir = mkdtempSync(join(tmpdir(), "campaignctl-bench-kill-"));
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
  const result = await runKillLoop({ cli, stateDir, total, concurrency, seed, maxAcksBeforeKill });
  const check = checkKillLoop(result, readFileSync(join(stateDir, "dedupe.jsonl"), "utf8"));
  rmSync(stateDir, { recursive: true, force: true });
  const ok =
    check.missing.length === 0 && check.notPrinted.length === 0 && check.repeatsOutsideWindow.length === 0;
  console.log(
    JSON.stringify(
      {
        bench: "webhooks-kill-loop",
        machine: `${cpus().length} x ${cpus()[0]?.model ?? "?"}, Node ${process.version}`,
        load_before: load,
        load_after: loadavg()
          .map((l) => l.toFixed(2))
          .join(", "),
        date: new Date().toISOString(),
        deliveries: total,
        senders: concurrency,
        seed,
        max_acks_before_kill: maxAcksBeforeKill,
        kills: result.kills,
        runs: result.outputs.length,
        seconds: Number(result.seconds.toFixed(2)),
        acked: check.acked,
        recorded: check.recorded,
        missing_from_record: check.missing.length,
        not_printed: check.notPrinted.length,
        printed_twice: check.printedTwice.length,
        repeats_outside_the_kill_window: check.repeatsOutsideWindow.length,
        partial_lines: check.partialLines,
        ok,
      },
      null,
      2,
    ),
  );
  process.exit(ok ? 0 : 1);
}
