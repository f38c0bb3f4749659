/**
 * Request counts at scale, asserted from the sandbox's own request log: 1,000 projects, rate limits
 * on, the client's clock and sleep wired to the sandbox's virtual clock (waiting costs no real time).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { planCommand } from "../../cli/commands/plan.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { captureIo } from "../helpers/run-cli.js";
import {
  campaignFile,
  fileProject,
  KEY,
  liveProject,
  tempDir,
  world,
} from "../plan-command/fixture-builder.js";
import { admin } from "../sandbox/helpers.js";

const N = 1000;
const START = new Date("2026-10-01T12:00:00Z");

interface LogData {
  total: number;
  counts: { per_route: Record<string, number> };
  requests: { status: number; route: string | null; path: string }[];
}

let sandbox: SandboxHandle;
let dir: string;

beforeAll(async () => {
  // Projects updated over the last 120 days: most in the newest window, some only in older ones,
  // some in none (not updated for more than 90 days).
  const live = Array.from({ length: N }, (_, i) =>
    liveProject(i + 1, START, {
      created_at: new Date(START.getTime() - (130 + (i % 7)) * 86_400_000).toISOString(),
      updated_at: new Date(START.getTime() - ((i * 37) % 120) * 86_400_000 - 3_600_000).toISOString(),
    }),
  );
  sandbox = await startSandbox({ fixture: world(live, { now: START }), timeScale: 0, rateLimits: true });
  const projects = Object.fromEntries(Array.from({ length: N }, (_, i) => [`p${i + 1}`, fileProject(i + 1)]));
  dir = tempDir({ "big.yaml": campaignFile(projects) });
});

afterAll(async () => {
  await sandbox.close();
});

async function log(): Promise<LogData> {
  return (await admin(sandbox, "GET", "/requests")).body.data as LogData;
}

async function clearLog(): Promise<void> {
  await admin(sandbox, "DELETE", "/requests");
}

async function plan(): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ cwd: dir, env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: KEY } });
  const outcome = await planCommand(
    ["."],
    {
      baseUrl: sandbox.baseUrl,
      apiKeyEnv: "CAMPAIGNCTL_API_KEY",
      target: [],
      exclude: [],
      json: true,
      color: false,
    },
    io,
    { clock: { now: () => sandbox.clock.nowMs() }, sleep: (ms) => sandbox.clock.advance(ms) },
  );
  return { code: exitCodeOf(outcome), out: io.out(), err: io.err() };
}

describe("refresh at scale (1,000 projects, rate limits on, virtual clock)", () => {
  test("cold: at most projects + 10 requests; warm: at most 10; after one edit: exactly that detail", async () => {
    const cold = await plan();
    expect(cold.code).toBe(0);
    const coldLog = await log();
    expect(coldLog.total).toBeLessThanOrEqual(N + 10);
    expect(coldLog.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(cold.out).not.toContain(KEY);
    expect(cold.err).not.toContain(KEY);
    // A cold plan waits minutes for the rate limit: it says so on stderr, not silently.
    expect(cold.err).toMatch(/^\+\S+ plan: \d+ API requests, \d+m( \d+s)? waiting for the rate limit$/m);
    const doc = JSON.parse(cold.out);
    expect(doc.requests.total).toBe(coldLog.total);
    expect(doc.requests.naive).toBeGreaterThanOrEqual(N);

    await clearLog();
    const warm = await plan();
    expect(warm.code).toBe(0);
    const warmLog = await log();
    expect(warmLog.total).toBeLessThanOrEqual(10);
    expect(warmLog.counts.per_route["GET /projects/{id}"]).toBeUndefined();
    expect(warmLog.requests.filter((r) => r.status === 429)).toEqual([]);

    const edited = "00000000-0000-4000-9000-000000000007";
    const patch = await admin(sandbox, "PATCH", `/projects/${edited}`, { name: "Renamed" });
    expect(patch.status).toBe(200);
    await clearLog();
    const after = await plan();
    expect(after.code).toBe(1);
    const afterLog = await log();
    expect(afterLog.counts.per_route["GET /projects/{id}"]).toBe(1);
    expect(afterLog.requests.filter((r) => r.route === "/projects/{id}").map((r) => r.path)).toEqual([
      `/projects/${edited}`,
    ]);
    expect(afterLog.total).toBeLessThanOrEqual(11);
    expect(JSON.parse(after.out).summary.drifted).toBe(1);
  });
});
