/**
 * `campaignctl sandbox`: serves the local emulator of the messaging API until Ctrl-C (SIGINT) or
 * SIGTERM, then closes cleanly (state flushed). Prints the base URL and the fixture's API keys
 * (fixture data of a local emulator, meant to be printed). A bad fixture, state file, fault spec
 * or port is reported as `where:line:col: message` with exit code 1.
 *
 * The virtual clock starts at the real now by default, and the fixture's timestamps move by the same
 * offset from its `clock.start` (a fixture's dates are relative to it), so a plan against this
 * sandbox lines up with the local clock (stats windows, schedules). `--start fixture` keeps the
 * fixture's own dates; `--start 2026-12-01T15:00:00Z` starts there (dates shifted to match).
 */
import { resolve } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { ClockStart, SandboxHandle, SandboxOptions } from "../../src/sandbox/index.js";
import { renderErrorDocument } from "../fail.js";
import type { Io } from "../io.js";
import { failure, type Outcome, success } from "../outcome.js";
import { renderSandboxInfo, SANDBOX_INFO_FORMAT_VERSION, sandboxInfo } from "../sandbox-info.js";

/** The flags of `sandbox`, as commander parses them. */
export interface SandboxFlags {
  readonly port: number;
  readonly host: string;
  readonly fixture?: string;
  readonly state?: string;
  readonly timeScale: number;
  readonly rateLimits: boolean;
  readonly autoApproveTests?: boolean;
  readonly faults?: string;
  readonly seed: number;
  /** `--json`: one JSON line on startup (sandbox-info.ts) instead of the banner. */
  readonly json?: boolean;
  /** `--start`: `now` (default), `fixture`, or an ISO 8601 date-time. */
  readonly start?: StartFlag;
}

/** What `--start` was given, parsed. */
export type StartFlag = "now" | "fixture" | Date;

/**
 * Serves until `stop` resolves. Exported so tests can run it in-process with their own stop and
 * their own real now (the default `--start now`).
 */
export async function runSandbox(
  flags: SandboxFlags,
  io: Io,
  stop: Promise<void>,
  realNow: () => Date = () => new Date(),
): Promise<Outcome> {
  // `now` is taken to the whole second, so the fixture's shifted dates carry no milliseconds.
  const start: ClockStart =
    flags.start === undefined || flags.start === "now" ? wholeSecond(realNow()) : flags.start;
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
    start,
  };
  // Loaded when the command runs, not with the program: other commands start faster.
  const { formatProblem, openSandbox } = await import("../../src/sandbox/index.js");
  const started = await openSandbox(options);
  if (!started.ok) {
    const said = started.problems.map((problem) => formatProblem(shorten(problem, flags, io)));
    if (flags.json === true)
      io.stdout(renderErrorDocument(SANDBOX_INFO_FORMAT_VERSION, said.map(unavailable)));
    for (const line of said) io.stderr(`campaignctl sandbox: ${line}\n`);
    return failure;
  }
  const sb = started.handle;
  io.stdout(flags.json === true ? renderSandboxInfo(sandboxInfo(sb, flags)) : banner(sb, flags));
  await stop;
  await sb.close();
  // With --json, stdout carries only the document.
  (flags.json === true ? io.stderr : io.stdout)(
    `sandbox stopped at virtual time ${sb.clock.now().toISOString()}${flags.state ? `; state saved to ${flags.state}` : ""}\n`,
  );
  return success;
}

function unavailable(message: string): Diagnostic {
  return { severity: "error", code: "cli.sandbox-unavailable", message };
}

function banner(sb: SandboxHandle, flags: SandboxFlags): string {
  const lines = [
    `campaignctl sandbox: serving the messaging API at ${sb.baseUrl}`,
    `  fixture: ${flags.fixture ?? "examples/sandbox.yaml (built in)"}`,
    `  state:   ${flags.state ?? "in memory (lost on exit)"}`,
    `  clock:   ${sb.clock.now().toISOString()} (x${flags.timeScale}, ${startNote(flags)})   rate limits: ${flags.rateLimits ? "on" : "off"}` +
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

function startNote(flags: SandboxFlags): string {
  if (flags.start === "fixture") return "the fixture's dates";
  if (flags.start instanceof Date) return "started at --start, fixture dates moved with it";
  return "started now, fixture dates moved with it";
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

/** Resolves on the first SIGINT or SIGTERM (Ctrl-C), which then no longer end the process. */
export function stopSignal(): Promise<void> {
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

function wholeSecond(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
