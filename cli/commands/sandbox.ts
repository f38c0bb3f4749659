/**
 * `campaignctl sandbox`: serves the local emulator of the messaging API until Ctrl-C (SIGINT) or
 * SIGTERM, then closes cleanly (state flushed). Prints the base URL and the fixture's API keys
 * (fixture data of a local emulator, meant to be printed). A bad fixture, state file, fault spec
 * or port (one in use, say) is reported like every other error, `file:line:col: error[code]: message`
 * with a hint (the error document with `--json`), with exit code 1 and nothing left listening.
 *
 * The virtual clock starts at the real now by default, and the fixture's timestamps move by the same
 * offset from its `clock.start` (a fixture's dates are relative to it), so a plan against this
 * sandbox lines up with the local clock (stats windows, schedules). `--start fixture` keeps the
 * fixture's own dates; `--start 2026-12-01T15:00:00Z` starts there (dates shifted to match).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Diagnostic, SourceRange } from "../../src/diagnostics/diagnostic.js";
import type {
  ClockStart,
  SandboxHandle,
  SandboxOptions,
  SandboxProblem,
  WebhookClock,
} from "../../src/sandbox/index.js";
import { notRegularFiles } from "../adapters/regular-file.js";
import { failWith } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { type Outcome, success } from "../output/outcome.js";
import { renderSandboxInfo, SANDBOX_INFO_FORMAT_VERSION, sandboxInfo } from "../output/sandbox-info.js";

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
  /** `--webhook-clock`: the clock of webhook deliveries' `X-Timestamp` (default `virtual`). */
  readonly webhookClock?: WebhookClock;
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
  const options = sandboxOptions(flags, io, realNow);
  // Only regular files are read (cli/adapters/regular-file.ts): a named pipe would be waited on for ever.
  const refused = await notRegularFiles([
    ...(flags.fixture === undefined || typeof options.fixture !== "string"
      ? []
      : [{ flag: "--fixture", shown: flags.fixture, path: options.fixture }]),
    ...(flags.state === undefined || options.statePath === undefined
      ? []
      : [{ flag: "--state", shown: flags.state, path: options.statePath }]),
  ]);
  if (refused.length > 0)
    return failWith(refused, new Map(), io, {
      json: flags.json === true,
      formatVersion: SANDBOX_INFO_FORMAT_VERSION,
    });
  // Loaded when the command runs, not with the program: other commands start faster.
  const { openSandbox } = await import("../../src/sandbox/index.js");
  const started = await openSandbox(options);
  if (!started.ok) {
    const sources = new Map<string, string>();
    const diagnostics = started.problems.map((problem) =>
      unavailable(shorten(problem, flags, io), flags, io, sources),
    );
    return failWith(diagnostics, sources, io, {
      json: flags.json === true,
      formatVersion: SANDBOX_INFO_FORMAT_VERSION,
    });
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

/**
 * The sandbox's options from the command's flags (paths resolved against the working directory).
 * Exported so a test can start, in process, the sandbox a documented command line describes.
 */
export function sandboxOptions(
  flags: SandboxFlags,
  io: Io,
  realNow: () => Date = () => new Date(),
): SandboxOptions {
  // `now` is taken to the whole second, so the fixture's shifted dates carry no milliseconds.
  const start: ClockStart =
    flags.start === undefined || flags.start === "now" ? wholeSecond(realNow()) : flags.start;
  return {
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
    webhookClock: flags.webhookClock ?? "virtual",
    wallClock: io.clock,
  };
}

/**
 * A start problem as a Diagnostic: at its file, line and column when it has them (the file's text
 * then goes into `sources`, for the excerpt), else naming the option or file in the message.
 */
function unavailable(
  problem: SandboxProblem,
  flags: SandboxFlags,
  io: Io,
  sources: Map<string, string>,
): Diagnostic {
  const range = problem.line === undefined ? undefined : rangeOf(problem, problem.line, io, sources);
  const hint = hintFor(problem, flags);
  return {
    severity: "error",
    code: "cli.sandbox-unavailable",
    message: range === undefined ? `${problem.where}: ${problem.message}` : problem.message,
    ...(range === undefined ? {} : { range }),
    ...(hint === undefined ? {} : { hint }),
  };
}

/** The problem's place in its file, or undefined when the file cannot be read again. */
function rangeOf(
  problem: SandboxProblem,
  line: number,
  io: Io,
  sources: Map<string, string>,
): SourceRange | undefined {
  let text: string;
  try {
    text = readFileSync(resolve(io.cwd, problem.where), "utf8");
  } catch {
    return undefined;
  }
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf("\n", offset);
    if (next < 0) return undefined;
    offset = next + 1;
  }
  const column = problem.column ?? 1;
  const at = { line, column, offset: Math.min(offset + column - 1, text.length) };
  sources.set(problem.where, text);
  return { file: problem.where, start: at, end: at };
}

function hintFor(problem: SandboxProblem, flags: SandboxFlags): string | undefined {
  switch (problem.where) {
    case "--port":
      return problem.message.endsWith("port already in use")
        ? `another process listens on port ${flags.port} (another \`campaignctl sandbox\`?): stop it, or choose another port (\`--port 0\` takes any free one)`
        : "check --host and --port: the host must be an address of this machine, and ports below 1024 may need privileges (`--port 0` takes any free one)";
    case "--faults":
      return "fix the --faults spec: its syntax is in docs/sandbox.md";
    case "--start":
      return "pass `now`, `fixture`, or an ISO 8601 date-time with an offset (2026-12-01T15:00:00Z)";
    case flags.state:
      return `delete ${flags.state} to start afresh from the fixture, or pass another --state file`;
    default:
      return problem.line === undefined && problem.where === flags.fixture
        ? "check the --fixture path: it names a fixture YAML file (its format is in docs/sandbox.md)"
        : "fix the fixture (its format is in docs/sandbox.md), then run again";
  }
}

function banner(sb: SandboxHandle, flags: SandboxFlags): string {
  const lines = [
    `campaignctl sandbox: serving the messaging API at ${sb.baseUrl}`,
    `  fixture: ${flags.fixture ?? "examples/sandbox.yaml (built in)"}`,
    `  state:   ${flags.state ?? "in memory (lost on exit)"}`,
    `  clock:   ${sb.clock.now().toISOString()} (x${flags.timeScale}, ${startNote(flags)})   rate limits: ${flags.rateLimits ? "on" : "off"}` +
      `${flags.faults ? `   faults: ${flags.faults}` : ""}`,
    ...(flags.webhookClock === "wall"
      ? ["  webhooks: X-Timestamp from this machine's clock (--webhook-clock wall)"]
      : []),
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
