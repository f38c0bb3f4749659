#!/usr/bin/env node
/**
 * The CPU time of one run of the built bin, start to exit, for the commands the kill, signal and
 * closed-pipe tests spawn (issue 35 point 9, issue 36; not a test; run after `npm run build`). Per
 * command, R fresh processes; the commands take turns (one run of each, R rounds), and with a
 * second build (BENCH_BASE: another dist/cli/main.js) each run of the one is paired with a run of
 * the other, which goes first alternating, so the machine's load falls on both alike. CPU time is
 * user + system of the child, from this process's /proc/self/stat `cutime`/`cstime` (10 ms ticks),
 * which a loaded machine distorts less than wall time. Printed: the median CPU and wall per command
 * and build. The sandbox the commands talk to runs in this process (its CPU is not the child's).
 * NODE_EXTRA_CA_CERTS is removed from the children, as the test pass does (vitest.config.ts).
 *
 *   node bench/cli-cold-start.mjs                                   # 9 rounds, this build
 *   BENCH_BASE=/tmp/base/dist/cli/main.js node bench/cli-cold-start.mjs 15    # against another
 *   node bench/cli-cold-start.mjs 9 apply,replies-once                        # some commands
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSandbox } from "../dist/src/sandbox/index.js";

const ROUNDS = Number(process.argv[2] ?? 9);
const ONLY = process.argv[3]?.split(",");
const root = fileURLToPath(new URL("..", import.meta.url));
const builds = [
  ["this", process.env.BENCH_CLI ?? join(root, "dist/cli/main.js")],
  ...(process.env.BENCH_BASE === undefined ? [] : [["base", process.env.BENCH_BASE]]),
];
const KEY = "pc_live_sbx_rv_rw_7Hq2mX9vT4";
const SECRET = "whsec_cold_start_0123456789abcdef01";
const { NODE_EXTRA_CA_CERTS: _bundle, ...inherited } = process.env;
const ENV = { ...inherited, NO_COLOR: "1", CAMPAIGNCTL_API_KEY: KEY, HOOK_SECRET: SECRET };

/** User + system CPU of this process's waited-for children so far, in ms (Linux). */
function childrenCpuMs() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * Where the runs' directories go: not /tmp, where thousands of other programs' entries make the
 * policy discovery's listing of each directory above the campaign files cost more than the rest
 * of a run (test/support/temp-root.ts keeps the pass's out of it for the same reason).
 */
const BASE_DIR = process.env.BENCH_TMPDIR ?? (existsSync("/var/tmp") ? "/var/tmp" : tmpdir());

/** A fresh directory with the examples (an apply's journal, the replies' state go there). */
function freshDir() {
  const dir = mkdtempSync(join(BASE_DIR, "campaignctl-cold-"));
  cpSync(join(root, "examples"), join(dir, "examples"), { recursive: true });
  return dir;
}

/**
 * Runs `cli args` in `cwd` to its end; with `until`, sends SIGTERM once stdout matches it (a
 * long-running command, stopped once it has started). Resolves with its CPU and wall ms.
 */
function timed(cli, args, cwd, until) {
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, ...args], { cwd, env: ENV, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let stopping = false;
  child.stdout.on("data", (d) => {
    out += d;
    if (until !== undefined && !stopping && until.test(out)) {
      stopping = true;
      child.kill("SIGTERM");
    }
  });
  child.stderr.on("data", (d) => {
    err += d;
  });
  return new Promise((resolve, reject) =>
    child.on("close", (code, signal) => {
      const wallMs = performance.now() - t0;
      if (code !== 0 && !(code === 2 && args[0] === "plan"))
        reject(new Error(`${args.join(" ")} ended ${code ?? signal}: ${err}`));
      else resolve({ cpuMs: childrenCpuMs() - cpu0, wallMs });
    }),
  );
}

const sb = await startSandbox({
  fixture: join(root, "examples/sandbox.yaml"),
  timeScale: 0,
  rateLimits: false,
  seed: 36,
});
/** name: [args, until] (args may use the sandbox's URL); each run in a fresh directory. */
const COMMANDS = {
  version: [["--version"]],
  "help plan": [["help", "plan"]],
  validate: [["validate", "examples/gotv.yaml"]],
  "validate examples/": [["validate", "examples/"]],
  "plan --sandbox": [["plan", "--sandbox", "examples/"]],
  "replies plan --sandbox": [["replies", "plan", "--sandbox", "examples/"]],
  "apply --sandbox": [["apply", "--sandbox", "--auto-approve", "examples/"]],
  "replies run --once": [
    ["replies", "run", "--once", "--no-webhooks", "--json", "--base-url", sb.baseUrl, "examples/gotv.yaml"],
  ],
  "replies run (worker)": [
    ["replies", "run", "--json", "--port", "0", "--secret-env", "HOOK_SECRET", "--base-url", sb.baseUrl],
    /"type":"started"/,
  ],
  "webhooks listen": [
    ["webhooks", "listen", "--port", "0", "--host", "127.0.0.1", "--json", "--secret-env", "HOOK_SECRET"],
    /listening|"type":"started"/,
  ],
  status: [["status", "--base-url", sb.baseUrl, "examples/"]],
};
const names = Object.keys(COMMANDS).filter((n) => ONLY === undefined || ONLY.includes(n.split(" ")[0]));
const results = new Map(); // `${build} ${name}` -> [{cpuMs, wallMs}]
const load0 = loadavg();
try {
  for (let round = 0; round < ROUNDS; round++)
    for (const name of names) {
      const [args, until] = COMMANDS[name];
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (const [build, cli] of order) {
        const dir = freshDir();
        try {
          const r = await timed(cli, args, dir, until);
          const key = `${build}\t${name}`;
          results.set(key, [...(results.get(key) ?? []), r]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        await sb.clock.advance(61_000);
      }
    }
} finally {
  await sb.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model}, node ${process.version}, load ${load0.map((l) => l.toFixed(2)).join(" ")} -> ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, ${ROUNDS} rounds, ${new Date().toISOString()}`,
);
console.log(`command\t${builds.map(([b]) => `${b} cpu ms\t${b} wall ms`).join("\t")}`);
for (const name of names)
  console.log(
    `${name}\t${builds
      .map(([b]) => {
        const rs = results.get(`${b}\t${name}`) ?? [];
        return `${median(rs.map((r) => r.cpuMs))}\t${median(rs.map((r) => r.wallMs)).toFixed(0)}`;
      })
      .join("\t")}`,
  );
