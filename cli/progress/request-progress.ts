/**
 * Progress of the reads a plan makes. At 100 requests a minute a cold plan of 1,000 projects spends
 * about ten minutes waiting for the rate limit; this says so on stderr instead of sitting silent.
 * On a terminal, one line redrawn in place; otherwise a line whenever a wait of 10 s or more ends,
 * headed like apply's progress lines by the time since the reads started, on the one stopwatch of
 * progress lines (`progress-clock.ts`, this machine's clock). The terminal line is cut to the
 * terminal's width (`progress-fit.ts`): a line that wrapped would leave a row behind that `\r` and
 * clearing the line cannot reach. Pure formatting (`requestProgressLine`) and a thin writer.
 */
import type { ApiEvent } from "../../src/api/index.js";
import { formatDuration } from "../../src/text/duration.js";
import type { Io } from "../output/io.js";
import { elapsedPrefix, stopwatch } from "./progress-clock.js";
import { fitLine, terminalColumns } from "./progress-fit.js";

/** What the reads have cost so far. */
export interface RequestProgress {
  readonly requests: number;
  readonly waitedMs: number;
}

export function requestProgressLine(progress: RequestProgress, what: string): string {
  const waited =
    progress.waitedMs > 0 ? `, ${formatDuration(progress.waitedMs)} waiting for the rate limit` : "";
  return `${what}: ${progress.requests} API request${progress.requests === 1 ? "" : "s"}${waited}`;
}

const LONG_WAIT_MS = 10_000;

export interface RequestProgressWriter {
  readonly onEvent: (event: ApiEvent) => void;
  /** Clears the terminal line; call before writing the report. */
  finish(): void;
}

/**
 * `clock`: this machine's clock (`io.clock`), in milliseconds; elapsed time counts from here.
 * `columns`: the terminal's width, read at each redraw.
 */
export function createRequestProgress(
  io: Io,
  what: string,
  clock: () => number,
  columns: () => number = () => terminalColumns(io),
): RequestProgressWriter {
  const watch = stopwatch(clock);
  let progress: RequestProgress = { requests: 0, waitedMs: 0 };
  let drawn = false;
  return {
    onEvent: (event) => {
      switch (event.type) {
        case "request-start":
          progress = { ...progress, requests: progress.requests + 1 };
          break;
        case "wait":
          progress = { ...progress, waitedMs: progress.waitedMs + event.ms };
          if (!io.stderrIsTTY && event.ms >= LONG_WAIT_MS)
            io.stderr(`${elapsedPrefix(watch.elapsedMs())} ${requestProgressLine(progress, what)}\n`);
          break;
        case "request-end":
        case "retry":
        case "wait-start": // said once by the session's notice (rate-limit-notice.ts)
          return;
      }
      if (io.stderrIsTTY) {
        io.stderr(`\r\x1b[2K${fitLine(requestProgressLine(progress, what), columns())}`);
        drawn = true;
      }
    },
    finish: () => {
      if (drawn) io.stderr("\r\x1b[2K");
      drawn = false;
    },
  };
}
