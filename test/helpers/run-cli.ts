/**
 * Runs the CLI in-process with a captured terminal, and the built binary as a child process, so
 * end-to-end tests read exactly the bytes and exit code a user would get.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { run } from "../../cli/lifecycle/run.js";
import type { Io } from "../../cli/output/io.js";
import { clockFrom, TEST_NOW } from "./clock.js";
import { checkCliDocuments } from "./documents.js";

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A terminal whose output is kept: `out()` and `err()` return what was written so far. */
export interface CapturedIo extends Io {
  out(): string;
  err(): string;
}

export interface CaptureOptions {
  /** The whole environment the command sees (default: only `NO_COLOR=1`). */
  readonly env?: Record<string, string | undefined>;
  readonly cwd?: string;
  readonly tty?: boolean;
  /** The machine clock the command sees (default: one started at `TEST_NOW`, never the real now). */
  readonly clock?: () => number;
}

export function captureIo(options: CaptureOptions = {}): CapturedIo {
  let out = "";
  let err = "";
  return {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    stdoutIsTTY: options.tty ?? false,
    stderrIsTTY: options.tty ?? false,
    stdinIsTTY: options.tty ?? false,
    env: options.env ?? { NO_COLOR: "1" },
    cwd: options.cwd ?? process.cwd(),
    clock: options.clock ?? clockFrom(TEST_NOW),
    // Every write lands in `out` before it returns: nothing is ever held back.
    stdoutFlushed: () => Promise.resolve(),
    out: () => out,
    err: () => err,
  };
}

export async function runCli(argv: readonly string[], options: CaptureOptions = {}): Promise<CliResult> {
  const io = captureIo({ ...options, env: { NO_COLOR: "1", ...options.env } });
  const code = await run(argv, io);
  checkCliDocuments(argv, io.out(), io.cwd);
  return { code, stdout: io.out(), stderr: io.err() };
}

export const BUILT_CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/** Runs the compiled `campaignctl` binary (built by `npm test`'s build step). */
export function runBuiltCli(
  argv: readonly string[],
  options: { env?: Record<string, string | undefined>; cwd?: string; input?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [BUILT_CLI, ...argv],
      {
        cwd: options.cwd,
        env: { ...process.env, NO_COLOR: "1", ...options.env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
        try {
          checkCliDocuments(argv, stdout, options.cwd ?? process.cwd());
        } catch (invalid) {
          reject(invalid);
          return;
        }
        resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}
