/**
 * The view of `campaignctl watch` (Terraform's `internal/command/views`: one view per command, the
 * format chosen once, here, from `--json` and whether stdout is a terminal; the command hands it
 * events and never looks at the format). Where each event goes (`watch-words.ts` says them):
 * - `--json`: one JSON line per event on stdout (`schemas/watch-event.schema.json`);
 * - stdout a terminal: a live view redrawn in place (the table of watched projects under a header),
 *   with the start, each trip and the end as lines that stay above it;
 * - otherwise (a pipe, a file, a CI log): one line per change.
 * Diagnostics go to stderr in every mode (info notes left out), and into the JSON lines.
 */
import { compareDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { WatchEvent, WatchProjectLine } from "../watch/watch-events.js";
import { renderDiagnosticsText } from "./diagnostics-text.js";
import {
  frameLines,
  jsonLine,
  pauseTriedLine,
  progressLine,
  startLines,
  stopLine,
  trippedLine,
} from "./watch-words.js";

/** The view's three forms: JSON lines, a line per change (pipe, file, CI log), a live terminal view. */
export type WatchViewMode = "json" | "lines" | "live";

/** Where the view writes (the CLI's terminal streams). */
export interface WatchSink {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** What the view is chosen from: the flags and the terminal, as the command gathered them. */
export interface WatchViewOptions {
  /** `--json`. */
  readonly json: boolean;
  /** Whether stdout is a terminal. */
  readonly tty: boolean;
  readonly color: boolean;
  /** The terminal's width for the live view; null when unknown. */
  readonly width: number | null;
}

export interface WatchView {
  readonly mode: WatchViewMode;
  readonly onEvent: (event: WatchEvent) => void;
}

/** The view of a run: its form chosen once from `options`. */
export function createWatchView(io: WatchSink, options: WatchViewOptions): WatchView {
  const mode: WatchViewMode = options.json ? "json" : options.tty ? "live" : "lines";
  // Diagnostics go to stderr in every form, info notes left out (as every command without --verbose).
  const diagnostic = (d: Diagnostic): void => {
    if (d.severity === "info") return;
    io.stderr(
      renderDiagnosticsText([d].sort(compareDiagnostics), { sources: new Map(), color: options.color }),
    );
  };
  return { mode, onEvent: viewFor(io, mode, diagnostic, options.width) };
}

function viewFor(
  io: WatchSink,
  mode: WatchViewMode,
  diagnostic: (d: Diagnostic) => void,
  width: number | null,
): (event: WatchEvent) => void {
  switch (mode) {
    case "json":
      return (event) => {
        io.stdout(jsonLine(event));
        if (event.type === "diagnostic") diagnostic(event.diagnostic);
      };
    case "lines": {
      /** `--once`: no later poll, so a pending pause is not said to be tried again. */
      let once = false;
      return (event) => {
        switch (event.type) {
          case "start":
            once = event.until === "once";
            io.stdout(`${startLines(event).join("\n")}\n`);
            break;
          case "progress":
            io.stdout(`${progressLine(event)}\n`);
            break;
          case "tripped":
            io.stdout(`${trippedLine(event, once)}\n`);
            break;
          case "pause":
            io.stdout(`${pauseTriedLine(event, once)}\n`);
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
      };
    }
    case "live":
      return liveView(io, diagnostic, width);
  }
}

/** The live view: permanent lines above a frame redrawn in place. */
function liveView(
  io: WatchSink,
  diagnostic: (d: Diagnostic) => void,
  width: number | null,
): (event: WatchEvent) => void {
  const watched = new Map<string, WatchProjectLine>();
  let poll: Extract<WatchEvent, { type: "poll" }> | null = null;
  let drawn = 0;
  let elapsed = 0;
  let once = false;
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
  return (event) => {
    elapsed = event.elapsed_ms;
    switch (event.type) {
      case "start":
        once = event.until === "once";
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
        above(() => io.stdout(`${trippedLine(event, once)}\n`));
        break;
      case "pause":
        watched.set(event.project.id, {
          ...event.project,
          status: event.pause.status_after ?? event.project.status,
        });
        above(() => io.stdout(`${pauseTriedLine(event, once)}\n`));
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
  };
}
