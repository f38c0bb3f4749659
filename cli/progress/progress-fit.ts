/**
 * Lines of a live view that fit the terminal: a view redrawn in place moves the cursor up by the
 * lines it drew, so a line that wraps leaves rows behind it and every redraw piles garbage on the
 * screen. Each line is cut to `columns - 1` cells (never the last column: some terminals wrap on
 * it), ending in `…`; a list says how many it left out (`running: a, b … and 197 more`). Control
 * characters from the API (an error message) are shown as U+FFFD so they cannot move the cursor.
 * Pure, but for `terminalColumns`, which reads the terminal's width.
 */
import { displayWidth, truncate, visibleText } from "../../src/report/status-cells.js";
import type { Io } from "../output/io.js";

/** Below this a terminal is too narrow for anything; the lines are cut as if it were this wide. */
export const MIN_COLUMNS = 20;

/** Columns assumed when the terminal does not say (a pipe, a CI log shown as a terminal). */
export const DEFAULT_COLUMNS = 80;

/** The cells a line may take on a terminal `columns` wide. */
export function lineWidth(columns: number): number {
  return Math.max(MIN_COLUMNS, Math.floor(columns)) - 1;
}

/** `text` on one row of a terminal `columns` wide: control characters shown, cut with `…`. */
export function fitLine(text: string, columns: number): string {
  return truncate(visibleText(text), lineWidth(columns));
}

/**
 * `head` followed by as many of `items` as fit one row (joined with `, `), and ` … and N more` for
 * the rest; `empty` when there are none. Invariant: the result fits (`fitLine` cuts what still does
 * not, a head longer than the row).
 */
export function fitList(head: string, items: readonly string[], columns: number, empty = "-"): string {
  if (items.length === 0) return fitLine(`${head}${empty}`, columns);
  const width = lineWidth(columns);
  const shown: string[] = [];
  for (const [i, item] of items.entries()) {
    const rest = items.length - i - 1;
    const tail = rest === 0 ? "" : ` … and ${rest} more`;
    const line = visibleText(`${head}${[...shown, item].join(", ")}${tail}`);
    if (displayWidth(line) > width) break;
    shown.push(item);
  }
  const left = items.length - shown.length;
  const more = left === 0 ? "" : `${shown.length === 0 ? "" : " "}… and ${left} more`;
  return fitLine(`${head}${shown.join(", ")}${more}`, columns);
}

/**
 * The width of the terminal stderr is on: `$COLUMNS` when set, else the terminal's own, else 80.
 * Read at each redraw, so a resized window is followed from the next frame.
 */
export function terminalColumns(io: Io): number {
  const set = io.env.COLUMNS;
  if (set !== undefined && /^\d+$/.test(set) && Number(set) > 0) return Number(set);
  const terminal = io.stderrIsTTY ? process.stderr.columns : undefined;
  return typeof terminal === "number" && terminal > 0 ? terminal : DEFAULT_COLUMNS;
}
