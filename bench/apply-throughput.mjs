#!/usr/bin/env node
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { applyCommand } from "../dist/cli/commands/apply.js";
import { runPlanPipeline } from "../dist/cli/gather/plan-pipeline.js";
import { openSession } from "../dist/cli/gather/session.js";
import { renderPlanJson } from "../dist/src/report/plan-json.js";
import { startSandbox } from "../dist/src/sandbox/index.js";
/**
 * apply throughput under the rate limit, against the ideal for N actions (not a test; run after
 * `npm run build`; issue 9's acceptance).
 *
 * For each size N: N `ready` projects whose campaign file wants them `scheduled` (N independent
 * schedules), an in-process sandbox with rate limits on (100 requests per minute per key, a sliding
 * window) and a simulated latency on every request (`*: latency(L)` fault, default 80 ms), its
 * virtual clock running at real speed (time scale 1) and jumped forward by every wait of the
 * client's limiter (so a minute of rate limit costs no real minute, while latency and our own CPU
 * time still count). Two runs per size, each on a fresh sandbox, through the CLI's own entry
 * (`applyCommand` from dist/):
 *
 * - `apply DIR --auto-approve`: plan (warm cache: one cold `plan` ran first and the window was then
 *   left to empty) and the reconciliation loop;
 * - `apply plan.json`: a plan saved by `plan --out`, re-derived (key scope, then the plan made again
 *   from the files and live state) and applied by the same loop.
 *
 * The ideal for R requests with a window of W = 100 per 60 s, parallelism P and latency L: request j
 * (0-based) cannot start before floor(j / W) * 60 s (the window) plus floor((j mod W) / P) * L (P in
 * flight at a time), so the last one ends at
 *     ideal(R) = floor((R - 1) / W) * 60 s + (floor(((R - 1) mod W) / P) + 1) * L
 * exact for every R, not only multiples of 100. R is the fewest requests the run must make:
 * N sends, plus the reads nobody can skip: the plan's bulk reads (organizations, 3 lists, 1 stats
 * page = 5), one basis read per 50 sends (the loop's fresh reads, issue 9's budget), and for a saved
 * plan the key-scope read (1). Actions per minute = N / time. Targets (exit 1 otherwise): every
 * action done, zero 429s, at least 90 % of the ideal actions per minute.
 *
 *   node bench/apply-throughput.mjs                 # 150, 250 and 300 actions, 80 ms latency
 *   node bench/apply-throughput.mjs 1000            # other sizes
 *   BENCH_LATENCY_MS=200 node bench/apply-throughput.mjs 300
 */
import { capturedIo } from "./lib.mjs";

const SIZES = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [150, 250, 300];
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 80);
const PARALLELISM = 4;
const WINDOW = 100;
const WINDOW_MS = 60_000;
const KEY = "pc_live_sbx_rv_rw_7Hq2mX9vT4";
const SCHEDULE_AT = "2026-12-07T10:00:00-06:00";
const fixtureText = readFileSync(new URL("../examples/sandbox.yaml", import.meta.url), "utf8");

/** The ideal end time (ms) of R requests: see the header. */
export function idealMs(requests, latencyMs = LATENCY_MS, parallelism = PARALLELISM) {
  if (requests <= 0) return 0;
  const last = requests - 1;
  return Math.floor(last / WINDOW) * WINDOW_MS + (Math.floor((last % WINDOW) / parallelism) + 1) * latencyMs;
}

function world(n) {
  const fixture = parse(fixtureText);
  const template = fixture.projects[0];
  const projects = {};
  for (let i = 1; i <= n; i++) {
    const id = `9c000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    fixture.projects.push({
      ...template,
      project_id: id,
      name: `Bench ${i}`,
      suppression_list_ids: [],
      status: "ready",
      updated_at: "2026-11-25T10:00:00.000Z",
    });
    projects[`bench-${i}`] = {
      id,
      name: `Bench ${i}`,
      state: "scheduled",
      schedule: { at: SCHEDULE_AT, timezone: "America/Chicago" },
    };
  }
  const file = {
    version: 1,
    organization: "Riverside Democrats",
    merge_defaults: { first_name: "friend" },
    fields: ["polling_place"],
    defaults: {
      channel: "10dlc",
      brand: "Riverside Democrats",
      campaign: "GOTV 2026",
      phone_numbers: ["+15035550101", "+15035550102"],
      contact_lists: ["Ward 3 Likely Voters"],
      message: template.message_text,
    },
    projects,
  };
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-bench-apply-"));
  mkdirSync(join(dir, "campaign"));
  writeFileSync(join(dir, "campaign", "bench.yaml"), stringify(file));
  return { fixture, dir };
}

/** One run on a fresh sandbox: `mode` is "files" or "saved". */
async function run(n, mode) {
  const { fixture, dir } = world(n);
  const sb = await startSandbox({
    fixture,
    rateLimits: true,
    timeScale: 1,
    faults: `*: latency(${LATENCY_MS}ms)`,
  });
  const clock = { now: () => sb.clock.nowMs() };
  const sleep = (ms) => sb.clock.advance(ms);
  const { io, out } = capturedIo(dir, KEY);
  try {
    // A cold plan fills the cache (and, for "saved", writes the plan file); then the window empties.
    const opened = await openSession({ baseUrl: sb.baseUrl }, io, { clock, sleep });
    if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join("; "));
    const planned = await runPlanPipeline(
      { paths: ["campaign"], targets: [], excludes: [], refresh: false },
      opened.session,
      io,
    );
    await opened.session.close();
    if (!planned.ok) throw new Error(planned.diagnostics.map((d) => `${d.code}: ${d.message}`).join("\n"));
    if (planned.plan.summary.planned !== n)
      throw new Error(`planned ${planned.plan.summary.planned} of ${n}`);
    if (mode === "saved") writeFileSync(join(dir, "plan.json"), renderPlanJson(planned.plan));
    await sleep(WINDOW_MS + 1000);

    const byEndpoint = new Map();
    let requests = 0;
    let throttled = 0;
    const t0 = clock.now();
    const wall0 = performance.now();
    const outcome = await applyCommand(
      mode === "saved" ? ["plan.json"] : ["campaign"],
      {
        parallelism: PARALLELISM,
        target: [],
        exclude: [],
        color: false,
        json: true,
        autoApprove: true,
        baseUrl: sb.baseUrl,
      },
      io,
      {
        session: {
          clock,
          sleep,
          onEvent: (e) => {
            if (e.type === "request-start") {
              requests++;
              const k = e.route;
              byEndpoint.set(k, (byEndpoint.get(k) ?? 0) + 1);
            }
            if (e.type === "request-end" && e.status === 429) throttled++;
          },
        },
        clock,
        sleep,
        onInterrupt: () => () => {},
        ask: async () => "",
      },
    );
    const elapsedMs = clock.now() - t0;
    const wallMs = performance.now() - wall0;
    if (process.env.BENCH_DEBUG === "2") console.log(out.stdout.slice(0, 3000), out.stderr.slice(-3000));
    const doc = JSON.parse(out.stdout.slice(out.stdout.indexOf("{")));
    const sandboxLog = async (path) => (await (await fetch(`${sb.rootUrl}/_sandbox${path}`)).json()).data;
    const effects = (await sandboxLog("/effects?kind=schedule")).effects.filter((e) => e.changed).length;
    const served429 = (await sandboxLog("/requests")).requests.filter((r) => r.status === 429).length;
    return {
      n,
      mode,
      outcome: outcome.kind,
      done: (doc.summary?.done ?? 0) + (doc.summary?.replayed ?? 0),
      effects,
      requests,
      posts: [...byEndpoint].filter(([k]) => k.startsWith("POST")).reduce((s, [, v]) => s + v, 0),
      byEndpoint: Object.fromEntries([...byEndpoint].sort()),
      basisReads: doc.basis_reads,
      throttled: Math.max(throttled, served429),
      elapsedMs,
      wallMs,
    };
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function minimumRequests(n, mode) {
  const bulk = 5; // organizations, 10DLC campaigns, contact lists, phone numbers, one stats page
  const basis = Math.ceil(n / 50);
  return n + bulk + basis + (mode === "saved" ? 1 : 0);
}

const rows = [];
let ok = true;
console.log(
  `apply-throughput: rate limit ${WINDOW}/min (sliding window), latency ${LATENCY_MS} ms per request, parallelism ${PARALLELISM}, virtual clock at real speed + limiter waits jumped`,
);
for (const n of SIZES) {
  for (const mode of ["files", "saved"]) {
    const r = await run(n, mode);
    const minimum = minimumRequests(n, mode);
    const ideal = idealMs(minimum);
    const perMin = (n * 60_000) / r.elapsedMs;
    const idealPerMin = (n * 60_000) / ideal;
    const pct = (100 * perMin) / idealPerMin;
    const reads = r.requests - r.posts;
    const extraReads = reads - (minimum - n);
    // What the reads cost: the ideal time with the reads actually made, against sends alone.
    const readsCostMs = idealMs(n + reads) - idealMs(n);
    const met = r.done === n && r.effects === n && r.throttled === 0 && pct >= 90;
    ok &&= met;
    rows.push({ ...r, minimum, ideal, perMin, idealPerMin, pct, reads, extraReads, readsCostMs, met });
    console.log(
      `  ${String(n).padStart(4)} actions, apply ${mode === "saved" ? "plan.json" : "DIR     "}: ` +
        `${r.done}/${n} done (${r.effects} scheduled), ${r.requests} requests (${r.posts} sends, ${reads} reads; minimum ${minimum}), ` +
        `${r.throttled} x 429, ${(r.elapsedMs / 1000).toFixed(1)} s virtual (ideal ${(ideal / 1000).toFixed(1)} s), ` +
        `${perMin.toFixed(1)} actions/min vs ideal ${idealPerMin.toFixed(1)} = ${pct.toFixed(1)} %, ` +
        `reads cost ${(readsCostMs / 1000).toFixed(1)} s of rate limit, wall ${(r.wallMs / 1000).toFixed(1)} s ${met ? "" : " MISSED"}`,
    );
    if (process.env.BENCH_DEBUG)
      console.log(`      ${JSON.stringify(r.byEndpoint)} basis_reads=${r.basisReads}`);
  }
}
console.log(
  ok
    ? "  targets met"
    : "  TARGET MISSED (need every action done, zero 429s, >= 90 % of the ideal actions per minute)",
);
process.exitCode = ok ? 0 : 1;
