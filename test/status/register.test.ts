/**
 * The registration of `status` (cli/register/status.ts) gives the command the flags it reads:
 * parsed by commander exactly as the program will once it registers the command, against a
 * sandbox at its fixed instant. (Through `run()` once cli/program.ts lists `registerStatus`.)
 */
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { exitCodeOf, type Outcome } from "../../cli/output/outcome.js";
import { registerStatus } from "../../cli/register/status.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { captureIo } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";
import { EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";
import { workDir } from "./world.js";

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true });
});
afterAll(async () => {
  await sb.close();
});

async function status(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cwd = workDir();
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
  registerStatus(program, io, (o) => {
    outcome = o;
  });
  await program.parseAsync(["status", ...argv], { from: "user" });
  checkCliDocuments(["status", ...argv], io.out(), cwd);
  return { code: outcome === undefined ? -1 : exitCodeOf(outcome), stdout: io.out(), stderr: io.err() };
}

describe("campaignctl status, as registered", () => {
  test("--all --json --no-estimate --since: the flags reach the command", async () => {
    const run = await status(["--all", "--json", "--no-estimate", "--since", "2026-11-15"]);
    expect(run.code).toBe(0);
    const doc = documentOf("status-result", run.stdout) as Record<string, never>;
    expect(doc).toMatchObject({
      estimates: false,
      selection: { all: true, organization: null },
      range: { since: "2026-11-15", until: "2026-12-01" },
      reads: { projects_read_by_id: 0 },
    });
  });

  test("--format csv and --width", async () => {
    const csv = await status(["--organization", "Riverside Democrats", "--format", "csv"]);
    expect(csv.stdout.split("\r\n")[0]).toMatch(/^level,organization_id,organization,project_id,/);
    const table = await status(["--all", "--width", "80"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^PROJECT +STATUS +SENT +DELIVERY +FAILURE +OPT-OUT +COST/);
  });

  test("--format outside text, json, csv is refused by commander", async () => {
    await expect(status(["--all", "--format", "xml"])).rejects.toThrow(/Allowed choices are text, json, csv/);
  });
});
