#!/usr/bin/env node
// Issue 28's figures for `campaignctl replies run`, on the sandbox's virtual clock (the API's clock):
// 1. the acceptance scenario at full scale: 500 inbounds across two projects, faults on the reply
//    endpoint (503 before, 500 after committing, resets, drops after committing), 30 % of the
//    webhook events never delivered, 5 kills at request boundaries; every check of
//    test/replies/acceptance.test.ts must hold;
// 2. inbound-to-answer latency (p50, p99) of spaced inbounds answered from their events, and of a
//    burst; answers per minute under the key's 100 requests a minute.
// It runs the in-process harness of test/replies/ through vitest with bigger numbers and prints the
// figures the harness writes. Usage: node bench/replies.mjs [inbounds=500] [kills=5] [burst=500]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const [inbounds = "500", kills = "5", burst = "500"] = process.argv.slice(2);
const root = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "cc-replies-bench-"));
const vitest = join(root, "node_modules/vitest/vitest.mjs");

function run(file, figures, env) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [vitest, "run", file], {
    cwd: root,
    env: { ...process.env, ...env, REPLIES_FIGURES: figures, REPLIES_CHAOS_BUDGET_MS: "900000" },
    encoding: "utf8",
  });
  const wall = Date.now() - started;
  if (r.status !== 0) {
    process.stdout.write(r.stdout.slice(-4000));
    process.stderr.write(r.stderr.slice(-4000));
    console.error(`FAIL: ${file} (exit ${r.status})`);
    process.exit(1);
  }
  return { wall, figures: JSON.parse(readFileSync(figures, "utf8")) };
}

console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, ${new Date().toISOString()}`,
);
const accept = run("test/replies/acceptance.test.ts", join(dir, "acceptance.json"), {
  REPLIES_CHAOS_INBOUNDS: inbounds,
  REPLIES_CHAOS_KILLS: kills,
});
console.log(`acceptance (${inbounds} inbounds, ${kills} kills), all checks held, ${accept.wall} ms wall:`);
console.log(JSON.stringify(accept.figures, null, 2));
const speed = run("test/replies/throughput.test.ts", join(dir, "throughput.json"), {
  REPLIES_STEADY_INBOUNDS: "100",
  REPLIES_BURST_INBOUNDS: burst,
});
console.log(`latency and throughput (100 spaced, ${burst} in a burst), ${speed.wall} ms wall:`);
console.log(JSON.stringify(speed.figures, null, 2));
