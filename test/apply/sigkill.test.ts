/**
 * The built CLI killed with SIGKILL at several moments of an apply, then run again: every effect
 * still happens exactly once, and the runs converge. The sandbox runs in this process (standalone,
 * real latency so there is something to interrupt); `apply` runs as `node dist/cli/main.js`.
 */
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { expect, test } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { BUILT_CLI } from "../helpers/run-cli.js";
import { effectCounts, effects } from "./helpers.js";
import { buildWorld } from "./world.js";

interface Child {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `apply`; with `kill`, sends SIGKILL `kill.delayMs` after the `kill.starts`-th action started
 * (read from the progress lines on stderr), i.e. with requests in flight.
 */
function runApply(
  cwd: string,
  baseUrl: string,
  key: string,
  kill: { readonly starts: number; readonly delayMs: number } | null,
): Promise<Child> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [BUILT_CLI, "apply", "campaign/generated.yaml", "--auto-approve", "--base-url", baseUrl, "--refresh"],
      { cwd, env: { ...process.env, CAMPAIGNCTL_API_KEY: key, NO_COLOR: "1" } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    let armed = false;
    child.stderr.on("data", (d) => {
      stderr += d;
      if (kill !== null && !armed && (stderr.match(/: started$/gm)?.length ?? 0) >= kill.starts) {
        armed = true;
        setTimeout(() => child.kill("SIGKILL"), kill.delayMs);
      }
    });
    // A run that hangs is a failure, not a stuck test.
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
}

test.runIf(existsSync(BUILT_CLI))(
  "SIGKILL at random moments, then rerun: every effect exactly once",
  async () => {
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
      faults: "*: latency(60ms, real)",
    });
    try {
      // Seeded "random" moments: after the k-th action started, plus 0 to 59 ms (requests take 60 ms).
      const kills: Child[] = [];
      const progress: number[] = [];
      let state = 7;
      const random = () => {
        state = (state * 48271) % 2147483647;
        return state / 2147483647;
      };
      for (let i = 0; i < 4; i++) {
        const kill = { starts: 1 + Math.floor(random() * 3), delayMs: Math.floor(random() * 60) };
        kills.push(await runApply(world.dir, sb.baseUrl, keys[i] ?? "", kill));
        progress.push((await effects(sb)).length);
      }
      const last = await runApply(world.dir, sb.baseUrl, keys[4] ?? "", null);
      expect(last.code, `${last.stdout.slice(-1500)}\n---\n${last.stderr}`).toBe(0);
      // The kills landed in the middle of applying: some effects had happened, not all of them.
      expect(
        kills.filter((k) => k.signal === "SIGKILL").length,
        JSON.stringify(progress),
      ).toBeGreaterThanOrEqual(3);
      expect(
        progress.some((n) => n > 0 && n < world.projects.length),
        JSON.stringify(progress),
      ).toBe(true);
      const counts = effectCounts(await effects(sb));
      for (const project of world.projects) {
        const kind = project.role === "test" ? "test" : project.role === "schedule" ? "schedule" : "pause";
        expect(counts.get(`${project.id}:${kind}`), project.address).toBe(1);
      }
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      const again = await runApply(world.dir, sb.baseUrl, keys[5] ?? "", null);
      expect(again.code).toBe(0);
      expect(again.stderr).toContain("No changes");
      expect(last.stdout + last.stderr + again.stdout + again.stderr).not.toContain("pc_live_sbx_sigkill");
    } finally {
      await sb.close();
      rmSync(world.dir, { recursive: true, force: true });
    }
  },
  60_000,
);
