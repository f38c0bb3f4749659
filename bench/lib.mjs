// What the validate benchmarks (validate-scale.mjs, validate-one-file.mjs) share: a temp dir for
// the generated input, the machine line, running the built CLI as a child process measured by
// validate-scale-rss.mjs, and the closing median/peak lines. Not part of campaignctl.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const preload = fileURLToPath(new URL("./validate-scale-rss.mjs", import.meta.url));

/**
 * The start of a generated campaign file, shared by the validate benches: the file's keys up to
 * `defaults` and its first shared values; each bench adds its own defaults and projects.
 */
export const CAMPAIGN_FILE_HEAD = `# yaml-language-server: $schema=../schemas/campaign.schema.json
version: 1
organization: Riverside Democrats
merge_defaults:
  first_name: friend
fields: [polling_place]
defaults:
  channel: 10dlc
  brand: Riverside Democrats
  campaign: GOTV 2026
  phone_numbers: ["+15035550101", "+15035550102"]
`;

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Bytes in MiB, with `digits` decimals. */
export const mib = (b, digits) => `${(b / (1024 * 1024)).toFixed(digits)} MiB`;

/** Runs `body(dir)` in a new temp dir, removed afterwards unless BENCH_KEEP is set. */
export function inTempDir(prefix, body) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    body(dir);
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept:    ${dir}`);
  }
}

/** Prints the machine line (RAM with `ramDigits` decimals). */
export function printMachine(ramDigits) {
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${mib(totalmem(), ramDigits)} RAM, node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}

/**
 * Runs the built CLI with `args` in a child process; its wall time (ms), and its peak RSS (bytes)
 * and CPU time (ms) as written to `rssFile` on exit. `cwd` (optional) is where it runs (where an
 * apply writes its journal).
 */
export function runCli(args, rssFile, maxBuffer, cwd) {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ["--import", preload, cli, ...args], {
    env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1" },
    maxBuffer,
    encoding: "utf8",
    ...(cwd === undefined ? {} : { cwd }),
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.error) throw child.error;
  const [peak, cpuMs] = readFileSync(rssFile, "utf8").split(" ").map(Number);
  return { child, wallMs, peak, cpuMs };
}

/**
 * Prints the wall (median), CPU (median) and peak (highest) lines, and sets the exit code: 1 when a
 * run failed (`ok` false) or over a target.
 */
export function finish({ walls, cpuTimes, peaks, targetMs, targetBytes, cpuNote, peakDigits, ok }) {
  const wall = median(walls);
  const peak = Math.max(...peaks);
  console.log(`wall:    ${wall.toFixed(0)} ms median of ${walls.length} (target < ${targetMs} ms)`);
  console.log(`cpu:     ${median(cpuTimes)} ms median (${cpuNote})`);
  console.log(
    `peak:    ${mib(peak, peakDigits)} RSS, highest run (target < ${mib(targetBytes, peakDigits)})`,
  );
  process.exitCode = ok && wall < targetMs && peak < targetBytes ? 0 : 1;
}

/**
 * A captured terminal for running a command in-process (`Io` of cli/output/io.ts): what it writes is kept
 * in `out`, the API key is `key`, and `clock` is its machine clock (default: the real one).
 */
export function capturedIo(dir, key, clock = () => Date.now()) {
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
      env: { CAMPAIGNCTL_API_KEY: key, NO_COLOR: "1" },
      cwd: dir,
      clock,
    },
  };
}

/**
 * The flags of a benched `webhooks listen`: any free loopback port, JSON lines, the state in
 * `stateDir`, the signing secret read from the environment variable `secretEnv`.
 */
export function listenFlags(stateDir, secretEnv) {
  return ["--port", "0", "--host", "127.0.0.1", "--json", "--state", stateDir, "--secret-env", secretEnv];
}
