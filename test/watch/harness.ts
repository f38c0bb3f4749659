/**
 * Runs `campaignctl watch` in-process against a sandbox (real HTTP on loopback, rate limits on, the
 * virtual clock frozen between moves: every wait of the client and of the loop advances it, so a
 * run of minutes takes no real time): the command function with a captured terminal (the
 * registration is not wired into the program yet), and with `--json` every line checked against
 * `schemas/watch-event.schema.json`.
 */
import { expect } from "vitest";
import { type WatchDeps, type WatchFlags, watchCommand } from "../../cli/commands/watch.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { checkLine } from "../helpers/documents.js";
import { type CliResult, captureIo } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";
import { admin, PARENT_KEY } from "../sandbox/helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: the JSON lines are checked against their schema
export type Line = any;

export interface WatchRun extends CliResult {
  /** With `--json`: every line of stdout, parsed and checked against the schema. */
  readonly lines: readonly Line[];
}

/** The ajv errors of one line against `schemas/watch-event.schema.json`; [] when valid. */
export function lineErrors(line: unknown): string[] {
  return schemaErrors("watch-event", line);
}

/**
 * Parses stdout as JSON lines, each valid against the schema (checkLine: a line this worker found
 * valid before, in another run, is not checked again).
 */
export function jsonLines(stdout: string): Line[] {
  const lines = stdout.split("\n").filter((l) => l !== "");
  for (const line of lines) checkLine("a watch line", "watch-event", line);
  return lines.map((l) => JSON.parse(l) as Line);
}

export interface RunOptions {
  readonly flags?: Partial<WatchFlags>;
  readonly deps?: Partial<WatchDeps>;
  readonly tty?: boolean;
  readonly env?: Readonly<Record<string, string>>;
  /** Called before each wait of the loop (its number, 1-based, and the wait): a test's hook into the run. */
  readonly beforeWait?: (n: number, ms: number) => void | Promise<void>;
}

/** Options of a run that gets Ctrl-C (the injected interrupt) before its `n`th wait. */
export function interruptedAt(n: number): Pick<RunOptions, "deps" | "beforeWait"> {
  let interrupt: () => void = () => {};
  return {
    deps: {
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => {};
      },
    },
    beforeWait: (wait) => {
      if (wait === n) interrupt();
    },
  };
}

/** `campaignctl watch PATHS` in `cwd` on the sandbox's virtual clock. */
export async function runWatch(
  sb: SandboxHandle,
  cwd: string,
  paths: readonly string[],
  options: RunOptions = {},
): Promise<WatchRun> {
  const io = captureIo({
    env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: PARENT_KEY, ...options.env },
    cwd,
    clock: () => sb.clock.nowMs(),
    ...(options.tty === undefined ? {} : { tty: options.tty }),
  });
  let waits = 0;
  const outcome = await watchCommand(paths, { baseUrl: sb.baseUrl, ...options.flags }, io, {
    session: { clock: { now: () => sb.clock.nowMs() }, sleep: async (ms) => sb.clock.advance(ms) },
    sleep: async (ms) => {
      waits++;
      await options.beforeWait?.(waits, ms);
      await sb.clock.advance(ms);
    },
    onInterrupt: () => () => {},
    ...options.deps,
  });
  const stdout = io.out();
  const result = { code: exitCodeOf(outcome), stdout, stderr: io.err() };
  if (options.flags?.json !== true) return { ...result, lines: [] };
  const document = stdout.startsWith("{\n") ? JSON.parse(stdout) : null;
  if (document !== null) {
    expect(schemaErrors("error-result", document)).toEqual([]);
    return { ...result, lines: [document] };
  }
  return { ...result, lines: jsonLines(stdout) };
}

export interface LoggedRequest {
  readonly method: string;
  readonly route: string | null;
  readonly path: string;
  readonly status: number;
  readonly idempotency_key: string | null;
  readonly at: string;
}

/** The sandbox's request log since it was last cleared. */
export async function requestLog(sb: SandboxHandle): Promise<LoggedRequest[]> {
  return (await admin(sb, "GET", "/requests")).body.data.requests;
}

export async function clearRequests(sb: SandboxHandle): Promise<void> {
  await admin(sb, "DELETE", "/requests");
}

/** The most requests in any 60-second window of the log (the contract's sliding window). */
export function busiestMinute(log: readonly LoggedRequest[]): number {
  const times = log.map((r) => Date.parse(r.at)).sort((a, b) => a - b);
  let most = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while ((times[to] ?? 0) - (times[from] ?? 0) >= 60_000) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

/** The effects log (`/_sandbox/effects`) of one kind. */
export async function effects(
  sb: SandboxHandle,
  kind: string,
): Promise<{ project_id: string; changed: boolean; idempotency_key: string | null }[]> {
  return (await admin(sb, "GET", `/effects?kind=${kind}`)).body.data.effects;
}

/** A project as `GET /_sandbox/projects/{id}` shows it. */
export async function liveProject(
  sb: SandboxHandle,
  id: string,
): Promise<{ status: string; pause_reason: string | null; updated_at: string }> {
  return (await admin(sb, "GET", `/projects/${id}`)).body.data;
}
