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
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
  };
}
