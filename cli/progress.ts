/**
 * The progress writer of apply: on a terminal, a live view redrawn in place (at most every 100 ms);
 * otherwise one line per event on stderr. Every time it shows is elapsed time since the run started,
 * on one stopwatch over the injected clock (`progress-clock.ts`). Thin: everything it shows comes
 * from `progress-format.ts`.
 */
import type { ApplyEvent } from "../src/apply/index.js";
import type { Io } from "./io.js";
import { stopwatch } from "./progress-clock.js";
import {
  foldProgress,
  formatEventLine,
  INITIAL_PROGRESS,
  type ProgressState,
  renderLive,
} from "./progress-format.js";

export interface Progress {
  readonly onEvent: (event: ApplyEvent) => void;
  /** Draws the final state (terminal) and stops redrawing. */
  finish(): void;
}

/** `clock`: this machine's clock (`io.clock`), in milliseconds; elapsed times count from `run-start`. */
export function createProgress(io: Io, clock: () => number, quiet: boolean): Progress {
  if (quiet) return { onEvent: () => {}, finish: () => {} };
  const watch = stopwatch(clock);
  if (!io.stderrIsTTY)
    return {
      onEvent: (event) => {
        if (event.type === "run-start") watch.restart();
        const line = formatEventLine(event, watch.elapsedMs());
        if (line !== null) io.stderr(`${line}\n`);
      },
      finish: () => {},
    };
  let state: ProgressState = INITIAL_PROGRESS;
  let drawn = 0;
  let lastDraw: number | null = null;
  const draw = () => {
    const elapsed = watch.elapsedMs();
    const lines = renderLive(state, elapsed);
    const up = drawn > 0 ? `\x1b[${drawn}A` : "";
    io.stderr(`${up}${lines.map((l) => `\r\x1b[2K${l}`).join("\n")}\n`);
    drawn = lines.length;
    lastDraw = elapsed;
  };
  const timer = setInterval(draw, 500);
  timer.unref();
  return {
    onEvent: (event) => {
      if (event.type === "run-start") {
        watch.restart();
        lastDraw = null;
      }
      state = foldProgress(state, event);
      if (lastDraw === null || watch.elapsedMs() - lastDraw >= 100 || event.type === "run-end") draw();
    },
    finish: () => {
      clearInterval(timer);
      draw();
    },
  };
}
