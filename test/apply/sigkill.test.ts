/**
 * The built CLI killed with SIGKILL at several moments of an apply, then run again: every effect
 * still happens exactly once, and the runs converge. The sandbox runs in this process (standalone,
 * real latency so there is something to interrupt); `apply` runs as `node dist/cli/main.js`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { expect, test } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { BUILT_CLI } from "../helpers/run-cli.js";
import { PARENT_KEY } from "../sandbox/helpers.js";
import { effectCounts, effects } from "./helpers.js";
import { buildWorld } from "./world.js";

interface Child {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runApply(cwd: string, baseUrl: string, killAfterMs: number | null): Promise<Child> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [BUILT_CLI, "apply", "campaign/generated.yaml", "--auto-approve", "--base-url", baseUrl, "--refresh"],
      { cwd, env: { ...process.env, CAMPAIGNCTL_API_KEY: PARENT_KEY, NO_COLOR: "1" } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = killAfterMs === null ? undefined : setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
}

test.runIf(existsSync(BUILT_CLI))("SIGKILL at random moments, then rerun: every effect exactly once", async () => {
  const world = buildWorld({ test: 4, schedule: 4, pause: 4 });
  const sb = await startSandbox({ fixture: world.fixture, rateLimits: false, faults: "*: latency(40ms, real)" });
  try {
    // Deterministic "random" moments across plan and apply (node start-up takes a few hundred ms).
    const kills: Child[] = [];
    for (const ms of [450, 700, 950, 1250]) kills.push(await runApply(world.dir, sb.baseUrl, ms));
    const last = await runApply(world.dir, sb.baseUrl, null);
    expect(last.code, last.stderr).toBe(0);
    expect(kills.some((k) => k.signal === "SIGKILL")).toBe(true);
    const counts = effectCounts(await effects(sb));
    for (const project of world.projects) {
      const kind = project.role === "test" ? "test" : project.role === "schedule" ? "schedule" : "pause";
      expect(counts.get(`${project.id}:${kind}`), project.address).toBe(1);
    }
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const again = await runApply(world.dir, sb.baseUrl, null);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("No changes");
    expect(last.stdout + last.stderr + again.stdout + again.stderr).not.toContain(PARENT_KEY);
  } finally {
    await sb.close();
  }
}, 60_000);
