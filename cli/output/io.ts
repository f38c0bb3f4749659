import { isatty } from "node:tty";

/**
 * The terminal and process as the commands see them. Commands write only through this, so the
 * end-to-end tests can run a command in-process and read exactly the bytes a user would see.
 */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /**
   * This machine's clock, in milliseconds since the epoch: the only place a command reads the wall
   * clock (the offline commands' "now", the client's clock before the API's `Date` arrives, journal
   * file names). Tests pass a clock started at a fixed instant, so no result depends on the date or
   * the hour the suite runs at.
   */
  readonly clock: () => number;
  /**
   * Masks every trace of the run's secrets (cli/output/output-redaction.ts); set by `run` for every
   * command, and applied to stdout, stderr and the files written through `saveFiles`.
   */
  readonly redact?: (text: string) => string;
}

/** Colour only on a TTY, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(io: Io, stream: "stdout" | "stderr"): boolean {
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== "") return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== "" && io.env.FORCE_COLOR !== "0")
    return true;
  return stream === "stdout" ? io.stdoutIsTTY : io.stderrIsTTY;
}

export function processIo(): Io {
  return {
    stdout: quietWriter(process.stdout, "stdout"),
    stderr: quietWriter(process.stderr, "stderr"),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    // Asked of the descriptor: `process.stdin` would open the stream (and load `net` for a pipe),
    // about 2 ms at start-up for a command that never reads it. The same answer: Node makes
    // `process.stdin` a TTY stream exactly when descriptor 0 is a terminal.
    stdinIsTTY: isatty(0),
    env: process.env,
    cwd: process.cwd(),
    clock: () => Date.now(),
  };
}

/**
 * A writer to `stream` that survives its reader going away. When the reader closes early
 * (`campaignctl help plan | head -1`), writes fail with EPIPE (Node ignores SIGPIPE); unhandled, that
 * error would end the process with a stack trace. Here the first failure marks the stream closed and
 * later output is dropped, so the command runs to its end and keeps its exit code. Any other write
 * error (a full disk behind `> file`) is said once on stderr, as one line.
 */
export function quietWriter(
  stream: NodeJS.WritableStream,
  name: "stdout" | "stderr",
): (text: string) => void {
  let closed = false;
  const onError = (error: unknown): void => {
    if (closed) return;
    closed = true;
    const code = error instanceof Error && "code" in error ? String(error.code) : "unknown error";
    if (code === "EPIPE" || code === "ERR_STREAM_DESTROYED" || name === "stderr") return;
    try {
      process.stderr.write(`campaignctl: cannot write to ${name} (${code}); further output dropped\n`);
    } catch {
      // stderr is gone too: nothing left to tell.
    }
  };
  stream.on("error", onError);
  return (text) => {
    if (closed) return;
    try {
      stream.write(text);
    } catch (error) {
      onError(error);
    }
  };
}
