/**
 * Where `campaignctl watch` writes its events (`watch-view.ts` says them):
 * - `--json`: one JSON line per event on stdout (`schemas/watch-event.schema.json`);
 * - stdout a terminal: a live view redrawn in place (the table of watched projects under a header),
 *   with the start, each trip and the end as lines that stay above it;
 * - otherwise (a pipe, a file, a CI log): one line per change.
 * Diagnostics go to stderr in every mode (info notes left out), and into the JSON lines.
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { WatchEvent, WatchProjectLine } from "../../src/watch/watch-events.js";
import type { Io } from "../io.js";
import { printDiagnostics } from "../print-diagnostics.js";
import { frameLines, jsonLine, progressLine, startLines, stopLine, trippedLine } from "./watch-view.js";

export type WatchOutputMode = "json" | "lines" | "live";

export interface WatchOutput {
  readonly onEvent: (event: WatchEvent) => void;
}

export function createWatchOutput(
  io: Io,
  mode: WatchOutputMode,
  options: { readonly color: boolean; readonly width: number | null },
): WatchOutput {
  const diagnostic = (d: Diagnostic): void =>
    printDiagnostics(io, "stderr", [d], new Map(), { verbose: false, color: options.color });
  switch (mode) {
    case "json":
      return {
        onEvent: (event) => {
          io.stdout(jsonLine(event));
          if (event.type === "diagnostic") diagnostic(event.diagnostic);
        },
      };
    case "lines":
      return {
        onEvent: (event) => {
          switch (event.type) {
            case "start":
              io.stdout(`${startLines(event).join("\n")}\n`);
              break;
            case "progress":
              io.stdout(`${progressLine(event)}\n`);
              break;
            case "tripped":
              io.stdout(`${trippedLine(event)}\n`);
              break;
            case "diagnostic":
              diagnostic(event.diagnostic);
              break;
            case "poll":
              break;
            case "stop":
              io.stdout(`${stopLine(event)}\n`);
              break;
          }
        },
      };
    case "live":
      return liveOutput(io, diagnostic, options.width);
  }
}

/** The live view: permanent lines above a frame redrawn in place. */
function liveOutput(io: Io, diagnostic: (d: Diagnostic) => void, width: number | null): WatchOutput {
  const watched = new Map<string, WatchProjectLine>();
  let poll: Extract<WatchEvent, { type: "poll" }> | null = null;
  let drawn = 0;
  let elapsed = 0;
  const erase = (): void => {
    if (drawn > 0) io.stdout(`\x1b[${drawn}A\r\x1b[0J`);
    drawn = 0;
  };
  const draw = (): void => {
    const lines = frameLines([...watched.values()], poll, elapsed, width);
    io.stdout(`${lines.map((l) => `\r\x1b[2K${l}`).join("\n")}\n`);
    drawn = lines.length;
  };
  /** Writes `text` above the frame (which is drawn again below it). */
  const above = (write: () => void): void => {
    erase();
    write();
    draw();
  };
  return {
    onEvent: (event) => {
      elapsed = event.elapsed_ms;
      switch (event.type) {
        case "start":
          for (const p of event.projects) if (p.sending) watched.set(p.id, p);
          above(() => io.stdout(`${startLines(event).join("\n")}\n`));
          break;
        case "progress":
          // Drawn with the poll that brought it.
          watched.set(event.project.id, event.project);
          break;
        case "tripped":
          watched.set(event.project.id, {
            ...event.project,
            status: event.pause.status_after ?? event.project.status,
          });
          above(() => io.stdout(`${trippedLine(event)}\n`));
          break;
        case "diagnostic":
          above(() => diagnostic(event.diagnostic));
          break;
        case "poll":
          poll = event;
          above(() => {});
          break;
        case "stop":
          poll = poll === null ? null : { ...poll, next_poll_ms: null };
          erase();
          draw();
          io.stdout(`${stopLine(event)}\n`);
          drawn = 0;
          break;
      }
    },
  };
}
