/**
 * The progress writer of apply: on a terminal, a live view redrawn in place (at most every 100 ms,
 * and every 500 ms for the elapsed time); otherwise one line per event on stderr. Every time it
 * shows is elapsed time since the run started, on one stopwatch over the injected clock
 * (`progress-clock.ts`). A redraw moves the cursor up over the rows the last frame took and clears
 * to the end of the screen before drawing: every line fits one row (`progress-fit.ts`), so the rows
 * drawn are the lines drawn. Thin: everything it shows comes from `progress-format.ts`.
 */
import type { ApplyEvent } from "../../src/apply/index.js";
import type { Io } from "../output/io.js";
import { stopwatch } from "./progress-clock.js";
import { terminalColumns } from "./progress-fit.js";
import {
  foldProgress,
  formatEventLine,
  INITIAL_PROGRESS,
  type ProgressState,
  renderLive,
} from "./progress-format.js";

export interface Progress {
  readonly onEvent: (event: ApplyEvent) => void;
  /**
   * Writes a line of its own (a notice: the long rate-limit wait): on a terminal above the live
   * view, which is drawn again below it; otherwise as one more line.
   */
  note(line: string): void;
  /** Draws the final state (terminal) and stops redrawing. */
  finish(): void;
}

/** Calls `fn` every `ms` until the returned function is called. */
export type Ticker = (fn: () => void, ms: number) => () => void;

/** What the live view reads at each redraw, besides the events. */
export interface LiveSources {
  /** The terminal's width. Default: `$COLUMNS`, else stderr's terminal, else 80. */
  readonly columns?: () => number;
  /** Requests a minute of the keys in use (their rate limits added up); no estimate without it. */
  readonly perMinute?: () => number;
  /** Redraws for the elapsed time. Default: a `setInterval` that does not keep the process alive. */
  readonly ticker?: Ticker;
}

const realTicker: Ticker = (fn, ms) => {
  const timer = setInterval(fn, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** `clock`: this machine's clock (`io.clock`), in milliseconds; elapsed times count from `run-start`. */
export function createProgress(
  io: Io,
  clock: () => number,
  quiet: boolean,
  sources: LiveSources = {},
): Progress {
  if (quiet) return { onEvent: () => {}, note: (line) => io.stderr(`${line}\n`), finish: () => {} };
  const watch = stopwatch(clock);
  if (!io.stderrIsTTY)
    return {
      onEvent: (event) => {
        if (event.type === "run-start") watch.restart();
        const line = formatEventLine(event, watch.elapsedMs());
        if (line !== null) io.stderr(`${line}\n`);
      },
      note: (line) => io.stderr(`${line}\n`),
      finish: () => {},
    };
  const columns = sources.columns ?? (() => terminalColumns(io));
  let state: ProgressState = INITIAL_PROGRESS;
  let drawn = 0;
  let lastDraw: number | null = null;
  /** Draws the frame over the last one, `above` (whole lines) written first where it began. */
  const draw = (above = "") => {
    const elapsed = watch.elapsedMs();
    const lines = renderLive(state, elapsed, { columns: columns(), perMinute: sources.perMinute?.() ?? 0 });
    const up = drawn > 0 ? `\x1b[${drawn}A` : "";
    io.stderr(`${up}\r\x1b[J${above}${lines.join("\n")}\n`);
    drawn = lines.length;
    lastDraw = elapsed;
  };
  const stop = (sources.ticker ?? realTicker)(draw, 500);
  return {
    onEvent: (event) => {
      if (event.type === "run-start") {
        watch.restart();
        lastDraw = null;
      }
      state = foldProgress(state, event);
      if (lastDraw === null || watch.elapsedMs() - lastDraw >= 100 || event.type === "run-end") draw();
    },
    note: (line) => draw(`${line}\n`),
    finish: () => {
      stop();
      draw();
    },
  };
}
