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
  /**
   * Resolves once everything written to `stdout` so far has been handed to the operating system
   * (written to the pipe, file or terminal), not merely queued in this process: what is queued is
   * lost when the process is killed. A command that records "printed" after printing (`webhooks
   * listen`'s `printed` marker) awaits this first. A stdout that was closed (its reader gone:
   * `| head`) resolves at once: nothing more can be delivered, the lines are dropped. Absent: every
   * write is handed on before it returns (an in-process test's io).
   */
  readonly stdoutFlushed?: () => Promise<void>;
}

/** Colour only on a TTY, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(io: Io, stream: "stdout" | "stderr"): boolean {
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== "") return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== "" && io.env.FORCE_COLOR !== "0")
    return true;
  return stream === "stdout" ? io.stdoutIsTTY : io.stderrIsTTY;
}

export function processIo(): Io {
  const stdout = quietStream(process.stdout, "stdout");
  return {
    stdout: stdout.write,
    stdoutFlushed: stdout.flushed,
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
  return quietStream(stream, name).write;
}

/** A stream that says how many bytes it holds, not yet handed to the OS (Node's `writableLength`). */
type WritableWithLength = NodeJS.WritableStream & { readonly writableLength?: number };

/** A {@link quietWriter} and its `flushed`: see {@link Io.stdoutFlushed}. */
export interface QuietStream {
  readonly write: (text: string) => void;
  /** Resolves once every write so far was handed to the OS, or the stream is closed. */
  readonly flushed: () => Promise<void>;
}

/**
 * {@link quietWriter}, counting the writes not yet handed on: a pipe whose reader is slow or paused
 * makes Node queue them in memory (`write` never blocks there). Each write's callback (called in
 * write order, also with an error) counts one down; `flushed` waits for the count to reach zero.
 * One shared callback, no promise per write: `flushed` costs something only when it waits.
 */
export function quietStream(stream: WritableWithLength, name: "stdout" | "stderr"): QuietStream {
  let closed = false;
  let unsettled = 0;
  let waiters: (() => void)[] = [];
  // Nothing queued in this process: every write so far was handed on (Node lowers the count when
  // the OS took the bytes, before the write's callback runs on the next tick).
  const handedOn = (): boolean => closed || unsettled <= 0 || stream.writableLength === 0;
  const wake = (): void => {
    const woken = waiters;
    waiters = [];
    for (const resolve of woken) resolve();
  };
  const settled = (): void => {
    unsettled -= 1;
    if (handedOn()) wake();
  };
  const onError = (error: unknown): void => {
    if (closed) return;
    closed = true;
    wake();
    const code = error instanceof Error && "code" in error ? String(error.code) : "unknown error";
    if (code === "EPIPE" || code === "ERR_STREAM_DESTROYED" || name === "stderr") return;
    try {
      process.stderr.write(`campaignctl: cannot write to ${name} (${code}); further output dropped\n`);
    } catch {
      // stderr is gone too: nothing left to tell.
    }
  };
  stream.on("error", onError);
  return {
    write: (text) => {
      if (closed) return;
      unsettled += 1;
      try {
        stream.write(text, settled);
      } catch (error) {
        settled();
        onError(error);
      }
    },
    flushed: () =>
      handedOn()
        ? Promise.resolve()
        : new Promise((resolve) => {
            waiters.push(resolve);
          }),
  };
}
