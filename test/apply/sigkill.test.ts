/**
 * The built CLI killed with SIGKILL at several moments of an apply, then run again: every effect
 * still happens exactly once, and the runs converge. The sandbox runs in this process (standalone,
 * frozen virtual clock); `apply` runs as `node dist/cli/main.js`.
 *
 * The kills happen at points defined by the sandbox's own state, never by a real timer: every POST is
 * held by a virtual latency fault until this test moves the sandbox's clock, so the test knows how
 * many effects a run has committed and whether a request is in flight when it kills. However slow
 * the machine, a kill lands at the same moment of the apply. The two runs after the kills, which
 * nothing kills, run in-process (`run` of cli/main.ts, same flags and key): the process is the
 * point only where it dies.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { setTimeout as pollPause } from "node:timers/promises";
import { expect, test } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { BUILT_CLI, runCli } from "../helpers/run-cli.js";
import { admin } from "../sandbox/helpers.js";
import { effectCounts, effects } from "./helpers.js";
import { buildWorld } from "./world.js";

interface Child {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How long (virtual) the sandbox holds every POST before handling it; the test releases it. */
const HOLD = "1m";
const HOLD_MS = 60_000;

/**
 * Where a run is killed, counted in effects committed since it started: `held` kills once `effects`
 * are committed and a POST has reached the sandbox but is not yet handled (a request in flight: the
 * sandbox handles it later, when the next run moves the clock, as a real server would); `answered`
 * kills as soon as the sandbox has answered the POST that made the `effects`-th effect (committed;
 * the CLI may or may not have read the answer or journaled it). `parallelism` is apply's flag.
 */
interface KillPoint {
  readonly effects: number;
  readonly at: "held" | "answered";
  readonly parallelism?: number;
}

/** The sandbox is polled (not timed) for the state a kill waits for; this only paces the polls. */
const POLL_MS = 20;

/** Effects that changed something (the sandbox's effects log). */
async function committed(sb: SandboxHandle): Promise<number> {
  return (await effects(sb)).filter((e) => e.changed).length;
}

/** Per sandbox, the held POSTs the request log was last seen to have answered (a count that only grows). */
const answeredSeen = new WeakMap<SandboxHandle, number>();

/**
 * POSTs inside the sandbox and not yet answered: the hold rule fires as a POST reaches the
 * pipeline, and the request log records the rule's text when it answers. Answered never passes
 * caught and never goes down, so while caught is the answered count last read, all are answered:
 * the whole request log (fetched and parsed, most of the test's own CPU when read at each look)
 * is read again only once a new POST has been caught.
 */
async function inFlight(sb: SandboxHandle): Promise<{ caught: number; answered: number }> {
  const rules = (await admin(sb, "GET", "/faults")).body.data as { rule: string; fired: number }[];
  const caught = rules.find((r) => r.rule.includes("latency"))?.fired ?? 0;
  if (caught === answeredSeen.get(sb)) return { caught, answered: caught };
  const log = (await admin(sb, "GET", "/requests")).body.data.requests as { fault: string | null }[];
  const answered = log.filter((r) => r.fault?.includes("latency")).length;
  answeredSeen.set(sb, answered);
  return { caught, answered };
}

/** A run of apply under way: its end, whether it has ended, and how to kill it. */
interface Launched {
  readonly closed: Promise<Child>;
  readonly exited: () => boolean;
  readonly kill: () => void;
}

function applyArgs(sb: SandboxHandle, parallelism: number | undefined): string[] {
  return [
    "apply",
    "campaign/generated.yaml",
    "--auto-approve",
    "--base-url",
    sb.baseUrl,
    "--refresh",
    ...(parallelism === undefined ? [] : ["--parallelism", String(parallelism)]),
  ];
}

/** `apply` as the built binary, a process the test can SIGKILL. */
function spawnApply(cwd: string, sb: SandboxHandle, key: string, parallelism?: number): Launched {
  const child = spawn(process.execPath, [BUILT_CLI, ...applyArgs(sb, parallelism)], {
    cwd,
    env: { ...process.env, CAMPAIGNCTL_API_KEY: key, NO_COLOR: "1" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  let exited = false;
  const closed = new Promise<Child>((done) => {
    child.on("close", (code, signal) => {
      exited = true;
      done({ code, signal, stdout, stderr });
    });
  });
  return { closed, exited: () => exited, kill: () => child.kill("SIGKILL") };
}

/** `apply` in-process, for the runs nothing kills. */
function applyInProcess(cwd: string, sb: SandboxHandle, key: string): Launched {
  let exited = false;
  const closed = runCli(applyArgs(sb, undefined), {
    cwd,
    env: { CAMPAIGNCTL_API_KEY: key },
    clock: () => sb.clock.nowMs(),
  }).then((r) => {
    exited = true;
    return { code: r.code, signal: null, stdout: r.stdout, stderr: r.stderr };
  });
  return {
    closed,
    exited: () => exited,
    kill: () => {
      throw new Error("an in-process run is not killed");
    },
  };
}

/**
 * Runs `apply`, releasing the POSTs it sends (by moving the sandbox's clock) as they arrive; with
 * `kill`, as a process, sent SIGKILL at that point of the run; without, in-process to its end.
 */
async function runApply(cwd: string, sb: SandboxHandle, key: string, kill: KillPoint | null): Promise<Child> {
  const run = kill === null ? applyInProcess(cwd, sb, key) : spawnApply(cwd, sb, key, kill.parallelism);
  const startEffects = await committed(sb);
  const reached = async () => kill !== null && (await committed(sb)) - startEffects >= kill.effects;
  while (!run.exited()) {
    const now = await inFlight(sb);
    if (now.caught === now.answered) {
      // Nothing held: the run is working (or ending); look again.
      await pollPause(POLL_MS);
      continue;
    }
    if (kill?.at === "held" && (await reached())) break;
    await sb.clock.advance(HOLD_MS);
    // Every POST that was in the sandbox is answered now or soon (none waits on anything else).
    while (!run.exited() && (await inFlight(sb)).answered < now.caught) await pollPause(POLL_MS);
    if (kill?.at === "answered" && (await reached())) break;
  }
  if (!run.exited()) run.kill();
  return run.closed;
}

/**
 * After a kill, the sandbox handles the POSTs the dead run left in flight (as a server finishes a
 * request whose client went away), before the next run starts.
 */
async function settle(sb: SandboxHandle): Promise<void> {
  const now = await inFlight(sb);
  if (now.caught === now.answered) return;
  await sb.clock.advance(HOLD_MS);
  while ((await inFlight(sb)).answered < now.caught) await pollPause(POLL_MS);
}

/**
 * The kill points, in order. Each leaves work for the next run: at most 8 of the 12 effects are
 * committed before the last kill (4 held in parallel, then 1 + 1, 1 + 1 with the request a kill
 * left in flight), so every kill finds apply still running, however slow the machine.
 */
const KILLS: readonly KillPoint[] = [
  // Parallel requests in flight, none handled yet.
  { effects: 0, at: "held" },
  { effects: 1, at: "answered", parallelism: 1 },
  { effects: 1, at: "held", parallelism: 1 },
  { effects: 2, at: "answered", parallelism: 1 },
];

test("SIGKILL at chosen moments of the sandbox's log, then rerun: every effect exactly once", async () => {
  const world = buildWorld({ test: 4, schedule: 4, pause: 4 });
  // One read-write key per run: the sandbox reports X-RateLimit-* even with limits off, and six
  // runs within a minute on one key would (rightly) make the client wait for the window.
  const keys = Array.from({ length: 6 }, (_, i) => `pc_live_sbx_sigkill_run_${i}_Xq7`);
  const org = world.fixture.api_keys[0]?.organization_id ?? "";
  for (const [i, key] of keys.entries())
    world.fixture.api_keys.push({
      id: `key_sigkill_${i}`,
      key,
      organization_id: org,
      type: "read-write",
      scopes: ["public:read", "public:write"],
    });
  const sb = await startSandbox({
    fixture: world.fixture,
    rateLimits: false,
    faults: `POST *: latency(${HOLD})`,
  });
  try {
    const kills: Child[] = [];
    /** Effects committed when each run started and when it was killed. */
    const progress: [number, number][] = [];
    for (const [i, kill] of KILLS.entries()) {
      const before = await committed(sb);
      kills.push(await runApply(world.dir, sb, keys[i] ?? "", kill));
      progress.push([before, await committed(sb)]);
      await settle(sb);
    }
    // Every kill landed while apply was running, at its point: after exactly that many effects.
    const told = JSON.stringify(progress);
    for (const [i, k] of kills.entries()) {
      expect(k.signal, `kill ${i}: ${told}\n${k.stderr}`).toBe("SIGKILL");
      const [before, atKill] = progress[i] ?? [0, 0];
      expect(atKill - before, `kill ${i}: ${told}`).toBe(KILLS[i]?.effects);
    }
    expect(await committed(sb), told).toBeLessThan(world.projects.length);

    const last = await runApply(world.dir, sb, keys[4] ?? "", null);
    expect(last.code, `${last.stdout.slice(-1500)}\n---\n${last.stderr}`).toBe(0);
    const counts = effectCounts(await effects(sb));
    for (const project of world.projects) {
      const kind = project.role === "test" ? "test" : project.role === "schedule" ? "schedule" : "pause";
      expect(counts.get(`${project.id}:${kind}`), project.address).toBe(1);
    }
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const again = await runApply(world.dir, sb, keys[5] ?? "", null);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("No changes");
    expect(last.stdout + last.stderr + again.stdout + again.stderr).not.toContain("pc_live_sbx_sigkill");
    expect(sb.bugs).toEqual([]);
  } finally {
    await sb.close();
    rmSync(world.dir, { recursive: true, force: true });
  }
}, 120_000);
