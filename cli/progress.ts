/**
 * The progress writer: on a terminal, a live view redrawn in place (at most every 100 ms); otherwise
 * one line per event on stderr. Thin: everything it shows comes from `progress-format.ts`.
 */
import type { ApplyEvent } from "../src/apply/index.js";
import type { Io } from "./io.js";
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

export function createProgress(io: Io, clock: () => number, quiet: boolean): Progress {
  if (quiet) return { onEvent: () => {}, finish: () => {} };
  if (!io.stderrIsTTY)
    return {
      onEvent: (event) => {
        const line = formatEventLine(event);
        if (line !== null) io.stderr(`${line}\n`);
      },
      finish: () => {},
    };
  let state: ProgressState = INITIAL_PROGRESS;
  let drawn = 0;
  let lastDraw = 0;
  const draw = () => {
    const lines = renderLive(state, clock());
    const up = drawn > 0 ? `\x1b[${drawn}A` : "";
    io.stderr(`${up}${lines.map((l) => `\r\x1b[2K${l}`).join("\n")}\n`);
    drawn = lines.length;
    lastDraw = Date.now();
  };
  const timer = setInterval(draw, 500);
  timer.unref();
  return {
    onEvent: (event) => {
      state = foldProgress(state, event);
      if (Date.now() - lastDraw >= 100 || event.type === "run-end") draw();
    },
    finish: () => {
      clearInterval(timer);
      draw();
    },
  };
}
