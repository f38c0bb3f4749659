#!/usr/bin/env node
/**
 * apply throughput across organizations, one key each (issue 26's first acceptance item; not a test;
 * run after `npm run build`).
 *
 * A generated world (scripts/gen-org-world.mjs, same generator in-process): ORGS organizations x
 * PROJECTS projects, every project `ready` with the `gotv` template's en or es text, and the campaign
 * file with that one template (en/es) wanting each instance `scheduled` at 10:00 local. For each key
 * count K (default 1, 4 and 20): a fresh in-process sandbox (rate limits on: 100 requests per minute
 * per key, sliding window; a simulated latency on every request, `*: latency(80ms)`), keys in the
 * environment as `CAMPAIGNCTL_API_KEY_<SLUG>` (SPEC-26) for the first K organizations only, and
 * `--target` naming those K organizations' instances (none when K = ORGS: everything). Then through the CLI's own
 * entries in dist/: `plan` (JSON), the window left to empty, and `apply DIR --auto-approve`, timed.
 *
 * The clock: the sandbox's virtual clock runs at real speed (time scale 1) and every wait of a
 * client limiter jumps it forward (so a minute of rate limit costs no real minute; latency and our
 * own CPU time still count). Concurrent waits are serialized: each jumps only to its own end, so K
 * limiters waiting together cost the longest wait, not the sum.
 *
 * The ideal: one key's R requests with a window of W = 100 per 60 s, P in flight and latency L end at
 *     ideal(R) = floor((R - 1) / W) * 60 s + (floor(((R - 1) mod W) / P) + 1) * L
 * (bench/apply-throughput.mjs). R per organization = PROJECTS sends + its unavoidable reads (the
 * plan's bulk reads, 5, and one basis read per 50 sends). K keys in parallel ideally take the same
 * time as one (each its own window), so the K-key ideal is K x the single-key ideal actions per
 * minute. Figures per K: actions done, 429 responses served (from /_sandbox/requests), requests
 * made with a key that is not the project's own organization's (must be 0), virtual time, actions
 * per minute and the percentage of the K-key ideal, and the speed-up over ONE key doing all of it
 * (ideal(K x R)). Targets (exit 1 otherwise): every action done, 0 x 429, 0 requests with another
 * organization's key, and at the largest K at least 90 % of the ideal.
 *
 * The sandbox runs in its own process (`--sandbox process`, the default: `node dist/cli/main.js
 * sandbox --start fixture --json`, the world's fixture written to a file), so the CPU time shown is
 * the client's alone, as a user's apply against the real API; its virtual clock is read over HTTP
 * once and then followed locally (it runs at real speed), and each limiter wait jumps it with
 * `POST /_sandbox/clock/advance`. `--sandbox in-process` starts it in this process as before.
 *
 * `--pairs N` (issue 36): N interleaved pairs of runs at the smallest and the largest key count
 * (1 and 20: 1, 20, 1, 20, ...), each pair's ratio = actions a minute at the largest count over
 * (largest count x actions a minute at the smallest), the goal >= 0.9.
 *
 *   node bench/org-apply.mjs                          # 20 organizations x 50 projects; 1, 4, 20 keys
 *   node bench/org-apply.mjs --orgs 20 --projects 150 --keys 1,20 --pairs 3
 *   BENCH_LATENCY_MS=200 BENCH_PARALLELISM=4 node bench/org-apply.mjs
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { stringify } from "yaml";

const { values } = parseArgs({
  options: {
    orgs: { type: "string", default: "20" },
    projects: { type: "string", default: "50" },
    keys: { type: "string", default: "1,4,20" },
    seed: { type: "string", default: "1" },
    sandbox: { type: "string", default: "process" },
    pairs: { type: "string", default: "0" },
  },
  strict: true,
});
const ORGS = Number(values.orgs);
const PROJECTS = Number(values.projects);
const KEY_COUNTS = values.keys.split(",").map(Number);
const SANDBOX = values.sandbox;
const PAIRS = Number(values.pairs);
if (SANDBOX !== "process" && SANDBOX !== "in-process") {
  console.error("org-apply: --sandbox must be process or in-process");
  process.exit(2);
}
if (!(Number.isInteger(PAIRS) && PAIRS >= 0)) {
  console.error("org-apply: --pairs must be a whole number");
  process.exit(2);
}
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 80);
const PARALLELISM = Number(process.env.BENCH_PARALLELISM ?? 4);
const WINDOW = 100;
const WINDOW_MS = 60_000;
if (KEY_COUNTS.some((k) => !(k >= 1 && k <= ORGS))) {
  console.error(`org-apply: every --keys count must be from 1 to --orgs (${ORGS})`);
  process.exit(2);
}

let dist;
try {
  dist = {
    ...(await import("../dist/src/sandbox/fixture/generate-world.js")),
    ...(await import("../dist/src/sandbox/index.js")),
    ...(await import("../dist/cli/commands/plan.js")),
    ...(await import("../dist/cli/commands/apply.js")),
  };
} catch (error) {
  console.error(`org-apply: build first (npm run build): ${error.message}`);
  process.exit(2);
}
const { generateOrgWorld, worldKeyEnvironment, startSandbox, planCommand, applyCommand } = dist;

/** The ideal end time (ms) of R requests through one key (see the header). */
function idealMs(requests) {
  if (requests <= 0) return 0;
  const last = requests - 1;
  return Math.floor(last / WINDOW) * WINDOW_MS + (Math.floor((last % WINDOW) / PARALLELISM) + 1) * LATENCY_MS;
}
const minimumRequests = (sends) => sends + 5 + Math.ceil(sends / 50);

function ioFor(dir, env, clock) {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    io: {
      stdout: (t) => {
        out.stdout += t;
      },
      stderr: (t) => {
        out.stderr += t;
      },
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      env: { NO_COLOR: "1", ...env },
      cwd: dir,
      clock,
    },
  };
}

const BUILT_CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));

/**
 * The sandbox in this process: its clock read directly. `cpuMs` is NaN: its CPU time is this
 * process's, counted with the client's.
 */
async function sandboxHere(world) {
  const sb = await startSandbox({
    fixture: world.fixture,
    rateLimits: true,
    timeScale: 1,
    faults: `*: latency(${LATENCY_MS}ms)`,
  });
  return {
    baseUrl: sb.baseUrl,
    rootUrl: sb.rootUrl,
    nowMs: () => sb.clock.nowMs(),
    advance: (ms) => sb.clock.advance(ms),
    cpuMs: () => Number.NaN,
    close: () => sb.close(),
  };
}

/** A process's CPU time so far (user + system, ms), from /proc (Linux); NaN elsewhere. */
function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The sandbox processes running: not left behind when this process ends early (an error, Ctrl-C). */
const sandboxes = new Set();
process.once("exit", () => {
  for (const child of sandboxes) child.kill("SIGTERM");
});
for (const signal of ["SIGINT", "SIGTERM"])
  process.once(signal, () => {
    for (const child of sandboxes) child.kill("SIGTERM");
    process.kill(process.pid, signal);
  });

/**
 * The sandbox as its own process (`campaignctl sandbox`), the world's fixture in a file. Its clock
 * runs at real speed, so after one read it is followed here (`performance.now()`), and each jump
 * made by `advance` resets the reading from the sandbox's answer.
 */
async function sandboxProcess(world, dir) {
  const fixture = join(dir, "fixture.yaml");
  writeFileSync(fixture, stringify(world.fixture, { lineWidth: 0, aliasDuplicateObjects: false }));
  const child = spawn(
    process.execPath,
    [
      BUILT_CLI,
      ...["sandbox", "--port", "0", "--fixture", fixture, "--start", "fixture", "--time-scale", "1"],
      ...["--faults", `*: latency(${LATENCY_MS}ms)`, "--json"],
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  sandboxes.add(child);
  child.once("exit", () => sandboxes.delete(child));
  let stderr = "";
  child.stderr.on("data", (b) => {
    stderr += b;
  });
  const info = await new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (b) => {
      text += b;
      const line = text.indexOf("\n");
      if (line >= 0) resolve(JSON.parse(text.slice(0, line)));
    });
    child.on("exit", (code) => reject(new Error(`sandbox exited ${code}: ${stderr}`)));
  });
  const post = async (path, body) => {
    const res = await fetch(`${info.root_url}/_sandbox${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()).data;
  };
  let offset = 0;
  const follow = (view) => {
    offset = view.now_ms - performance.now();
  };
  follow((await (await fetch(`${info.root_url}/_sandbox/clock`)).json()).data);
  return {
    baseUrl: info.base_url,
    rootUrl: info.root_url,
    nowMs: () => Math.floor(offset + performance.now()),
    advance: async (ms) => follow(await post("/clock/advance", { ms })),
    cpuMs: () => processCpuMs(child.pid),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function run(k) {
  const world = generateOrgWorld({
    orgs: ORGS,
    projects: PROJECTS,
    mode: "scheduled",
    seed: Number(values.seed),
  });
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-bench-org-apply-"));
  mkdirSync(join(dir, "campaign"));
  // In full, as the generator writes it (no anchors: more than 100 alias expansions are refused).
  writeFileSync(
    join(dir, "campaign", "gotv.yaml"),
    stringify(world.campaign, { lineWidth: 0, aliasDuplicateObjects: false }),
  );
  const sb = SANDBOX === "process" ? await sandboxProcess(world, dir) : await sandboxHere(world);
  const clock = { now: () => sb.nowMs() };
  let chain = Promise.resolve();
  const sleep = (ms) => {
    const target = sb.nowMs() + ms;
    const turn = chain.then(async () => {
      const d = Math.ceil(target - sb.nowMs());
      if (d > 0) await sb.advance(d);
    });
    chain = turn.catch(() => {});
    return turn;
  };
  const orgs = world.organizations.slice(0, k);
  // The K organizations' instances by address (one --target each): every organization beyond K has no key.
  const target = k === ORGS ? [] : orgs.flatMap((o) => o.projects.map((p) => p.instance));
  const env = worldKeyEnvironment(world, k);
  const { io, out } = ioFor(dir, env, () => sb.nowMs());
  const keyIdOf = new Map(world.fixture.api_keys.map((key) => [key.organization_id, key.id]));
  const orgOfProject = new Map(world.fixture.projects.map((p) => [p.project_id, p.organization_id]));
  const ownKeys = new Set(orgs.map((o) => keyIdOf.get(o.id)));
  /** The request log since the last read: total, 429s, requests with a key not the project's own organization's. */
  const readLog = async (clear) => {
    const log = (await (await fetch(`${sb.rootUrl}/_sandbox/requests`)).json()).data;
    if (clear) await fetch(`${sb.rootUrl}/_sandbox/requests`, { method: "DELETE" });
    let foreign = 0;
    for (const r of log.requests) {
      const id = /\/projects\/([0-9a-f-]{36})/.exec(r.path)?.[1];
      const owner = id === undefined ? undefined : orgOfProject.get(id);
      if (owner !== undefined ? r.key_id !== keyIdOf.get(owner) : !ownKeys.has(r.key_id)) foreign++;
    }
    return {
      total: log.total,
      throttled: log.requests.filter((r) => r.status === 429).length,
      foreign,
      perRoute: log.counts.per_route,
    };
  };
  try {
    const flags = { baseUrl: sb.baseUrl, target, exclude: [], color: false, json: true };
    const planned = await planCommand(["campaign"], { ...flags, out: "plan.json" }, io, { clock, sleep });
    const planDoc = JSON.parse(out.stdout.slice(out.stdout.indexOf("{")));
    const plannedLog = await readLog(true);
    if (planned.kind !== "success")
      throw new Error(`plan: ${planned.kind}\n${out.stderr.slice(-3000)}\n${out.stdout.slice(-6000)}`);
    await sleep(WINDOW_MS + 1000);
    out.stdout = "";
    out.stderr = "";
    const before = sb.nowMs();
    const wall0 = performance.now();
    const cpu0 = process.cpuUsage();
    const sandboxCpu0 = sb.cpuMs();
    const outcome = await applyCommand(
      ["campaign"],
      { ...flags, parallelism: PARALLELISM, autoApprove: true },
      io,
      {
        session: { clock, sleep },
        clock,
        sleep,
        onInterrupt: () => () => {},
        ask: async () => "",
      },
    );
    const elapsedMs = sb.nowMs() - before;
    const wallMs = performance.now() - wall0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const sandboxCpuMs = sb.cpuMs() - sandboxCpu0;
    const applied = await readLog(true);
    const effects = (await (await fetch(`${sb.rootUrl}/_sandbox/effects?kind=schedule`)).json()).data.effects;
    const doc = JSON.parse(out.stdout.slice(out.stdout.indexOf("{")) || "{}");
    return {
      k,
      outcome: outcome.kind,
      planned: planDoc.summary?.planned,
      done: (doc.summary?.done ?? 0) + (doc.summary?.replayed ?? 0),
      scheduled: effects.filter((e) => e.changed).length,
      planRequests: plannedLog.total,
      requests: applied.total,
      perRoute: applied.perRoute,
      throttled: plannedLog.throttled + applied.throttled,
      foreign: plannedLog.foreign + applied.foreign,
      elapsedMs,
      wallMs,
      cpuMs,
      sandboxCpuMs,
      stderr: out.stderr,
    };
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `org-apply: ${ORGS} organizations x ${PROJECTS} projects, template gotv (en/es); rate limit ${WINDOW}/min per key (sliding window), latency ${LATENCY_MS} ms, parallelism ${PARALLELISM}; virtual clock at real speed + limiter waits jumped`,
);
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, ${new Date().toISOString()}`,
);
let ok = true;
const largest = Math.max(...KEY_COUNTS);
const smallest = Math.min(...KEY_COUNTS);

/** Runs K keys, prints the run's line; returns its actions a minute (virtual time). */
async function measure(k) {
  const r = await run(k);
  const actions = k * PROJECTS;
  const perMin = (actions * WINDOW_MS) / r.elapsedMs;
  // The single-key ideal: one key's 100 requests a minute, spent on the fewest requests the actions need.
  const singleKeyPerMin = (WINDOW * PROJECTS) / minimumRequests(PROJECTS);
  const pct = (100 * perMin) / (k * singleKeyPerMin);
  // One key doing all K organizations' work, at its ideal (rate limit, latency, parallelism).
  const oneKeyForAll = idealMs(k * minimumRequests(PROJECTS));
  const met =
    r.done === actions &&
    r.scheduled === actions &&
    r.throttled === 0 &&
    r.foreign === 0 &&
    (PAIRS > 0 || k !== largest || pct >= 90);
  ok &&= met;
  const sandboxCpu = Number.isNaN(r.sandboxCpuMs)
    ? ""
    : `, sandbox CPU ${(r.sandboxCpuMs / 1000).toFixed(1)} s`;
  console.log(
    `  ${String(k).padStart(2)} key${k === 1 ? " " : "s"}: ${r.done}/${actions} done (${r.scheduled} scheduled), plan ${r.planRequests} requests, apply ${r.requests} (minimum ${k * minimumRequests(PROJECTS)}), ` +
      `${r.throttled} x 429, ${r.foreign} with another organization's key; apply ${(r.elapsedMs / 1000).toFixed(1)} s virtual, ` +
      `${perMin.toFixed(0)} actions/min = ${pct.toFixed(1)} % of ${k} x the single-key ideal (${(k * singleKeyPerMin).toFixed(0)}/min); ` +
      `one key for all ${(oneKeyForAll / 1000).toFixed(1)} s at best (x${(oneKeyForAll / r.elapsedMs).toFixed(1)} faster); ` +
      `wall ${(r.wallMs / 1000).toFixed(1)} s, client CPU ${(r.cpuMs / 1000).toFixed(1)} s${sandboxCpu}${met ? "" : "  MISSED"}`,
  );
  if (process.env.BENCH_DEBUG) console.log(`      apply requests by route: ${JSON.stringify(r.perRoute)}`);
  if (process.env.BENCH_DEBUG === "2") console.log(r.stderr);
  return perMin;
}

console.log(`  sandbox: ${SANDBOX === "process" ? "its own process" : "in this process"}`);
if (PAIRS > 0) {
  const ratios = [];
  for (let pair = 1; pair <= PAIRS; pair++) {
    const one = await measure(smallest);
    const many = await measure(largest);
    const ratio = many / (largest * one);
    ratios.push(ratio);
    console.log(
      `  pair ${pair}: ${many.toFixed(0)} / (${largest} x ${one.toFixed(0)}) actions/min = ${ratio.toFixed(2)}x${ratio >= 0.9 ? "" : "  (goal >= 0.9x)"}, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
  }
  const worst = Math.min(...ratios);
  ok &&= worst >= 0.9;
  console.log(
    `  ratios ${ratios.map((r) => r.toFixed(2)).join(", ")}: worst ${worst.toFixed(2)}x (goal >= 0.9x)`,
  );
} else {
  for (const k of KEY_COUNTS) await measure(k);
}
console.log(
  ok
    ? "  targets met"
    : `  TARGET MISSED (need every action done, 0 x 429, every request with its own organization's key, ${PAIRS > 0 ? "every pair's ratio >= 0.9x" : ">= 90 % of the ideal at the largest key count"})`,
);
process.exitCode = ok ? 0 : 1;
