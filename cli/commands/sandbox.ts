/**
 * `campaignctl sandbox`: serves the local emulator of the messaging API until Ctrl-C (SIGINT) or
 * SIGTERM, then closes cleanly (state flushed). Prints the base URL and the fixture's API keys
 * (fixture data of a local emulator, meant to be printed). A bad fixture, state file, fault spec
 * or port is reported as `where:line:col: message` with exit code 1.
 */
import { resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import {
  formatProblem,
  openSandbox,
  type SandboxHandle,
  type SandboxOptions,
} from "../../src/sandbox/index.js";
import type { Io } from "../io.js";
import { failure, type Outcome, success } from "../outcome.js";
import type { ReportOutcome } from "../program.js";

interface SandboxFlags {
  readonly port: number;
  readonly host: string;
  readonly fixture?: string;
  readonly state?: string;
  readonly timeScale: number;
  readonly rateLimits: boolean;
  readonly autoApproveTests?: boolean;
  readonly faults?: string;
  readonly seed: number;
}

export const DEFAULT_SANDBOX_PORT = 4010;

export function registerSandbox(program: Command, io: Io, report: ReportOutcome): void {
  program
    .command("sandbox")
    .description("Run a stateful local emulator of the messaging API (for tests, demos and integrations)")
    .option("--port <n>", "port to listen on (0: any free port)", integer(0, 65535), DEFAULT_SANDBOX_PORT)
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--fixture <file>", "fixture YAML (default: the package's examples/sandbox.yaml)")
    .option("--state <file>", "persist the world here after every change and resume from it on start")
    .option("--time-scale <x>", "virtual seconds per real second (0: frozen clock)", nonNegative, 1)
    .option("--no-rate-limits", "do not enforce the per-key rate limits (headers are still sent)")
    .option("--auto-approve-tests", "approve test sends at once (awaiting_test -> ready)")
    .option(
      "--faults <spec>",
      'inject faults, e.g. "POST /projects/{id}/schedule: commit-then-fail(500) p=0.3"',
    )
    .option("--seed <n>", "seed for fault draws and generated ids", integer(0, 2 ** 31 - 1), 1)
    .addHelpText(
      "after",
      [
        "",
        "Routes outside the contract live under /_sandbox (no key): clock, approve, requests, effects,",
        "test-messages, faults, reset. See the README's sandbox section.",
        "",
        "Examples:",
        "  campaignctl sandbox",
        "  campaignctl sandbox --port 0 --state .campaignctl/sandbox.json --auto-approve-tests",
      ].join("\n"),
    )
    .action(async (flags: SandboxFlags) => report(await runSandbox(flags, io, stopSignal())));
}

/** Serves until `stop` resolves. Exported so tests can run it in-process with their own stop. */
export async function runSandbox(flags: SandboxFlags, io: Io, stop: Promise<void>): Promise<Outcome> {
  const options: SandboxOptions = {
    port: flags.port,
    host: flags.host,
    fixture: flags.fixture === undefined ? undefined : resolve(io.cwd, flags.fixture),
    statePath: flags.state === undefined ? undefined : resolve(io.cwd, flags.state),
    timeScale: flags.timeScale,
    rateLimits: flags.rateLimits,
    autoApproveTests: flags.autoApproveTests ?? false,
    faults: flags.faults,
    seed: flags.seed,
  };
  const started = await openSandbox(options);
  if (!started.ok) {
    for (const problem of started.problems)
      io.stderr(`campaignctl sandbox: ${formatProblem(shorten(problem, flags, io))}\n`);
    return failure;
  }
  const sb = started.handle;
  io.stdout(banner(sb, flags));
  await stop;
  await sb.close();
  io.stdout(
    `sandbox stopped at virtual time ${sb.clock.now().toISOString()}${flags.state ? `; state saved to ${flags.state}` : ""}\n`,
  );
  return success;
}

function banner(sb: SandboxHandle, flags: SandboxFlags): string {
  const lines = [
    `campaignctl sandbox: serving the messaging API at ${sb.baseUrl}`,
    `  fixture: ${flags.fixture ?? "examples/sandbox.yaml (built in)"}`,
    `  state:   ${flags.state ?? "in memory (lost on exit)"}`,
    `  clock:   ${sb.clock.now().toISOString()} (x${flags.timeScale})   rate limits: ${flags.rateLimits ? "on" : "off"}` +
      `${flags.faults ? `   faults: ${flags.faults}` : ""}`,
    "",
    "API keys (fixture data):",
    ...sb.keys.map(
      (k) =>
        `  ${k.key}  ${k.organization_name} · ${k.type} · ${k.scopes.join(" ")}${k.revoked ? " · revoked" : ""}` +
        `${k.expires_at ? ` · expires ${k.expires_at}` : ""}`,
    ),
    "",
    `Sandbox controls: ${sb.rootUrl}/_sandbox/...   Press Ctrl-C to stop.`,
    "",
  ];
  return lines.join("\n");
}

/** Shows the fixture path as the user typed it rather than resolved. */
function shorten(
  problem: { where: string; line?: number; column?: number; message: string },
  flags: SandboxFlags,
  io: Io,
) {
  if (flags.fixture !== undefined && problem.where === resolve(io.cwd, flags.fixture))
    return { ...problem, where: flags.fixture };
  if (flags.state !== undefined && problem.where === resolve(io.cwd, flags.state))
    return { ...problem, where: flags.state };
  return problem;
}

function stopSignal(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

function integer(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max)
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

function nonNegative(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError("expected a number >= 0");
  return n;
}
