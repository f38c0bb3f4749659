/**
 * The registration of `watch` (cli/register/watch.ts) gives the command the flags it reads: parsed
 * by commander exactly as the program will once it registers the command, against a sandbox at its
 * fixed instant. Only `--once` runs here: the registered command waits on real timers otherwise.
 */
import { Command, CommanderError } from "commander";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { exitCodeOf, type Outcome } from "../../cli/output/outcome.js";
import { registerWatch } from "../../cli/register/watch.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { captureIo } from "../helpers/run-cli.js";
import { PARENT_KEY } from "../sandbox/helpers.js";
import { jsonLines, type Line } from "./harness.js";
import { campaignFile, watchWorld, workDir } from "./world.js";

let sb: SandboxHandle;
let cwd: string;
beforeAll(async () => {
  const world = watchWorld(2);
  sb = await startSandbox({ fixture: world.fixture, timeScale: 0, rateLimits: true });
  cwd = workDir({
    "campaign.yaml": campaignFile(
      { one: world.senders[0] as string, two: world.senders[1] as string },
      {
        max_failure_rate: 0.1,
      },
    ),
  });
});
afterAll(async () => {
  await sb.close();
});

async function watch(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIo({
    env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: PARENT_KEY, CAMPAIGNCTL_BASE_URL: sb.baseUrl },
    cwd,
    clock: () => sb.clock.nowMs(),
  });
  let outcome: Outcome | undefined;
  const program = new Command("campaignctl").exitOverride().configureOutput({
    writeOut: io.stdout,
    writeErr: io.stderr,
  });
  registerWatch(program, io, (o) => {
    outcome = o;
  });
  try {
    await program.parseAsync(["watch", ...argv], { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { code: error.exitCode, stdout: io.out(), stderr: io.err() };
  }
  return { code: outcome === undefined ? -1 : exitCodeOf(outcome), stdout: io.out(), stderr: io.err() };
}

describe("campaignctl watch, as registered", () => {
  test("--once --json --interval: the flags reach the command", async () => {
    const run = await watch([".", "--once", "--json", "--interval", "1m30s"]);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines[0]).toMatchObject({ type: "start", interval_ms: 90_000, until: "once" });
    expect(lines[0].projects.map((p: Line) => [p.address, p.sending, p.guard?.min_sample])).toEqual([
      ["one", true, 100],
      ["two", true, 100],
    ]);
    expect(lines.at(-1)).toMatchObject({ type: "stop", reason: "once" });
  });

  test("an interval under the minimum is a usage error; one that is no duration is refused by the parser", async () => {
    const short = await watch(["--once", "--interval", "2s"]);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("cli.usage");
    const bad = await watch(["--once", "--interval", "soon"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("expected a duration such as 15s, 1m or 1m30s");
  });

  test("--base-url conflicts with --sandbox", async () => {
    const run = await watch(["--once", "--sandbox", "--base-url", sb.baseUrl]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot be used with/);
  });
});
