/**
 * Import tests' harness: a sandbox started in-process per case (real HTTP on loopback, rate limits
 * on, frozen virtual clock at the fixed instant `TEST_NOW`), an empty temp directory, and `import` / `plan` run
 * in-process against it on the sandbox's virtual clock (every client wait, such as the rate
 * limiter's, advances that clock instead of the wall clock, so a case may run import many times).
 * A case may put the machine's clock a fixed distance from the API's (`machineAheadMs`).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importCommand } from "../../cli/commands/import.js";
import type { ImportFlags } from "../../cli/commands/import-flags.js";
import { planCommand } from "../../cli/commands/plan.js";
import type { Io } from "../../cli/output/io.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { TEST_NOW } from "../helpers/clock.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { type CliResult, captureIo } from "../helpers/run-cli.js";
import { KEY } from "../plan-command/fixture-builder.js";
import { admin } from "../sandbox/helpers.js";

export interface ImportCase {
  readonly sandbox: SandboxHandle;
  readonly dir: string;
  readonly now: Date;
  /** `campaignctl import ARGS` (ids, --all, --status, --organization, --out, --check, --json). */
  importing(args: readonly string[]): Promise<CliResult>;
  /** `campaignctl plan PATHS` (with --json, --detailed-exitcode). */
  planning(args: readonly string[]): Promise<CliResult>;
}

/** How a case's machine clock stands to the API's. */
export interface CaseOptions {
  /**
   * This machine's clock minus the API's (the sandbox's virtual clock), in ms: the command's
   * `io.clock` and its client's clock run that far from the API's, moving with it. Default 0.
   */
  readonly machineAheadMs?: number;
}

export async function withSandbox<T>(
  fixtureFor: (now: Date) => Fixture,
  fn: (c: ImportCase) => Promise<T>,
  caseOptions: CaseOptions = {},
): Promise<T> {
  const now = TEST_NOW;
  const sandbox = await startSandbox({ fixture: fixtureFor(now), timeScale: 0, rateLimits: true });
  const dir = mkdtempSync(join(tmpdir(), "cc-import-"));
  const env = { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: KEY, CAMPAIGNCTL_BASE_URL: sandbox.baseUrl };
  const ahead = caseOptions.machineAheadMs ?? 0;
  const machine = () => sandbox.clock.nowMs() + ahead;
  const options = {
    clock: { now: machine },
    sleep: async (ms: number) => sandbox.clock.advance(ms),
  };
  const captured = async (
    argv: readonly string[],
    go: (io: Io) => Promise<Parameters<typeof exitCodeOf>[0]>,
  ): Promise<CliResult> => {
    const io = captureIo({ env, cwd: dir, clock: machine });
    const code = exitCodeOf(await go(io));
    checkCliDocuments(argv, io.out(), dir);
    return { code, stdout: io.out(), stderr: io.err() };
  };
  try {
    return await fn({
      sandbox,
      dir,
      now,
      importing: (args) => {
        const { words, flags } = parseArgs(args);
        return captured(["import", ...args], (io) => importCommand(words, flags, io, options));
      },
      planning: (args) => {
        const paths = args.filter((a) => !a.startsWith("--"));
        const flags = {
          target: [],
          exclude: [],
          color: false,
          json: args.includes("--json"),
          detailedExitcode: args.includes("--detailed-exitcode"),
        };
        return captured(["plan", ...args], (io) => planCommand(paths, flags, io, options));
      },
    });
  } finally {
    await sandbox.close();
  }
}

function parseArgs(args: readonly string[]): { words: string[]; flags: ImportFlags } {
  const words: string[] = [];
  const flags: Record<string, unknown> = { color: false, out: "" };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--all" || arg === "--check" || arg === "--json") flags[arg.slice(2)] = true;
    else if (arg === "--out" || arg === "--status" || arg === "--organization")
      flags[arg.slice(2)] = args[++i];
    else words.push(arg);
  }
  return { words, flags: flags as unknown as ImportFlags };
}

/** Edits a live project as a person would in the dashboard (`PATCH /_sandbox/projects/{id}`). */
export async function dashboardEdit(
  sandbox: SandboxHandle,
  id: string,
  edit: Record<string, unknown>,
): Promise<void> {
  const response = await admin(sandbox, "PATCH", `/projects/${id}`, edit);
  if (response.status >= 300)
    throw new Error(`dashboard edit failed: ${response.status} ${JSON.stringify(response.body)}`);
}
