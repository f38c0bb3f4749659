#!/usr/bin/env node
// Benchmark (not a test): `campaignctl plan` of 1,000 and 10,000 projects against the sandbox with
// rate limits on and a frozen virtual clock. Run after `npm run build`:
//   node bench/plan-scale.mjs [sizes...]        (default: 1000 10000)
// The sandbox runs as a child process (the built CLI's `sandbox` command), so the CPU time measured
// here is the plan's alone. The client's clock and sleep are wired to the sandbox's virtual clock
// (`POST /_sandbox/clock/advance`): waiting for the rate limit costs virtual time, not real time.
// Prints, for a cold plan (empty cache) and a warm one (nothing changed): requests (and the naive
// count), simulated API time, wall time, CPU time and peak RSS. Exits 1 when a target is missed:
// warm plan at least 100x fewer requests than naive; CPU of a 10,000-project plan under 5 s.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const { planCommand } = await import("../dist/cli/commands/plan.js");
const { exitCodeOf } = await import("../dist/cli/output/outcome.js");

const SIZES = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1000, 10000];
const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const KEY = "pc_live_bench_plan_key_4Kd93Lq";
const ORG = "00000000-0000-4000-8000-0000000000a1";
const BRAND = "00000000-0000-4000-8000-0000000000b1";
const TEN_DLC = "00000000-0000-4000-8000-0000000000c1";
const NUM = "00000000-0000-4000-8000-0000000000e1";
const LIST = "00000000-0000-4000-8000-0000000000f1";
const START = Date.parse("2026-10-01T12:00:00Z");
const DAY = 86_400_000;
const CPU_TARGET_MS = 5000;
const WARM_FACTOR = 100;

const pid = (n) => `00000000-0000-4000-9000-${n.toString(16).padStart(12, "0")}`;
const message = (n) =>
  `Hi {{first_name|friend}}, Ward ${n % 40} votes Tuesday, 7am-7pm. Reply STOP to opt out`;

function fixture(n) {
  const at = (days) => new Date(START - days * DAY).toISOString();
  return {
    version: 1,
    clock: { start: new Date(START).toISOString() },
    organizations: [{ id: ORG, name: "Bench Democrats", created_at: at(400) }],
    api_keys: [
      {
        id: "key_bench",
        key: KEY,
        organization_id: ORG,
        type: "read-write",
        scopes: ["public:read", "public:write"],
      },
    ],
    brands: [{ id: BRAND, name: "Bench Brand", organization_id: ORG, created_at: at(400) }],
    ten_dlc_campaigns: [{ id: TEN_DLC, name: "GOTV", brand_id: BRAND, created_at: at(400) }],
    phone_numbers: [
      {
        id: NUM,
        number: "+15035550101",
        organization_id: ORG,
        channel: "10dlc",
        campaign_id: TEN_DLC,
        created_at: at(400),
      },
    ],
    contact_lists: [
      {
        id: LIST,
        name: "Voters",
        organization_id: ORG,
        brand_id: BRAND,
        created_at: at(400),
        contacts: [{ phone: "+15035550110" }],
      },
    ],
    projects: Array.from({ length: n }, (_, i) => ({
      project_id: pid(i + 1),
      organization_id: ORG,
      name: `Project ${i + 1}`,
      channel: "10dlc",
      brand_id: BRAND,
      campaign_id: TEN_DLC,
      phone_number_ids: [NUM],
      message_text: message(i + 1),
      contact_list_ids: [LIST],
      opt_out_footer_enabled: false,
      total_recipients: 1,
      created_at: at(130 + (i % 7)),
      updated_at: new Date(START - ((i * 37) % 120) * DAY - 3_600_000).toISOString(),
    })),
  };
}

function campaignYaml(n) {
  let text = `version: 1\norganization: Bench Democrats\nmerge_defaults: {first_name: friend}\n`;
  text += `defaults:\n  channel: 10dlc\n  brand: Bench Brand\n  campaign: GOTV\n  phone_numbers: ["+15035550101"]\n  contact_lists: [Voters]\n  opt_out_footer: false\nprojects:\n`;
  for (let i = 1; i <= n; i++)
    text += `  p${i}:\n    id: ${pid(i)}\n    name: Project ${i}\n    message: "${message(i)}"\n`;
  return text;
}

function startSandbox(fixtureFile) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [CLI, "sandbox", "--fixture", fixtureFile, "--port", "0", "--time-scale", "0"],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+\/v1/.exec(out);
      if (url) resolve({ child, baseUrl: url[0], rootUrl: url[0].slice(0, -3) });
    });
    child.on("exit", (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
  });
}

async function runPlan(dir, sandbox, clock) {
  let stdout = "";
  const io = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      if (process.env.BENCH_DEBUG === "1") process.stderr.write(t);
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: KEY },
    cwd: dir,
    clock: () => Date.now(),
  };
  const flags = {
    baseUrl: sandbox.baseUrl,
    apiKeyEnv: "CAMPAIGNCTL_API_KEY",
    target: [],
    exclude: [],
    json: true,
    color: false,
  };
  const virtualBefore = clock.now();
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const outcome = await planCommand(["campaign.yaml"], flags, io, { clock, sleep: clock.sleep });
  const wallMs = performance.now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  const doc = JSON.parse(stdout);
  return {
    code: exitCodeOf(outcome),
    requests: doc.requests.total,
    naive: doc.requests.naive,
    byEndpoint: doc.requests.by_endpoint,
    virtualMs: clock.now() - virtualBefore,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssMiB: process.resourceUsage().maxRSS / 1024,
  };
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `plan-scale: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);
let failed = false;
for (const n of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), "cc-plan-bench-"));
  const fixtureFile = join(dir, "fixture.yaml");
  writeFileSync(fixtureFile, JSON.stringify(fixture(n)));
  writeFileSync(join(dir, "campaign.yaml"), campaignYaml(n));
  const sandbox = await startSandbox(fixtureFile);
  let virtual = START;
  const clock = {
    now: () => virtual,
    sleep: async (ms) => {
      await fetch(`${sandbox.rootUrl}/_sandbox/clock/advance`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ms: Math.ceil(ms) }),
      });
      virtual += Math.ceil(ms);
    },
  };
  try {
    for (const run of ["cold", "warm"]) {
      const r = await runPlan(dir, sandbox, clock);
      const log = await (await fetch(`${sandbox.rootUrl}/_sandbox/requests`)).json();
      const throttled = log.data.requests.filter((q) => q.status === 429).length;
      await fetch(`${sandbox.rootUrl}/_sandbox/requests`, { method: "DELETE" });
      console.log(
        `${String(n).padStart(6)} projects ${run}: exit ${r.code}, ${r.requests} requests (naive ${r.naive}, ${(r.naive / r.requests).toFixed(0)}x fewer; sandbox log ${log.data.total}, ${throttled} x 429), simulated API time ${seconds(r.virtualMs)}, wall ${seconds(r.wallMs)}, CPU ${seconds(r.cpuMs)}, peak RSS ${r.rssMiB.toFixed(0)} MiB`,
      );
      if (run === "warm" && r.naive / r.requests < WARM_FACTOR) {
        console.log(`  MISSED: warm plan is not ${WARM_FACTOR}x fewer requests than naive`);
        failed = true;
      }
      if (n >= 10000 && r.cpuMs > CPU_TARGET_MS) {
        console.log(`  MISSED: CPU time over ${seconds(CPU_TARGET_MS)}`);
        failed = true;
      }
      if (throttled > 0 || r.code !== 0) failed = true;
    }
  } finally {
    sandbox.child.kill("SIGTERM");
    if (process.env.BENCH_KEEP !== "1") rmSync(dir, { recursive: true, force: true });
    else console.log(`  kept ${dir}`);
  }
}
process.exitCode = failed ? 1 : 0;
