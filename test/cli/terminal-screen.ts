/**
 * A terminal of a fixed width for the tests of live views: it reads the bytes a view writes to a
 * TTY and keeps the screen they leave, as a terminal does. It knows what the views write: printable
 * text (wide characters take two cells, and a character written past the last column wraps to the
 * next row), `\n` (as a TTY's output processing makes it: back to column 0 and down a row), `\r`,
 * cursor up (`ESC [ n A`), erase in line (`ESC [ 2 K`) and erase below (`ESC [ J`). Any other escape
 * sequence is a test failure: the view wrote something this terminal cannot judge.
 */
import { displayWidth } from "../../src/report/status-cells.js";

export interface Screen {
  /** The rows with their text, trailing spaces dropped, trailing empty rows dropped. */
  readonly rows: () => string[];
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
const ESC = "\x1b";
/** A control sequence: ESC [ digits, then the letter naming it (sticky: read where `lastIndex` says). */
const CSI = new RegExp(`${ESC}\\[(\\d*)([A-Za-z])`, "y");
/** Where the next escape, carriage return or line feed is (searched from `lastIndex`). */
const CONTROL = new RegExp(`[${ESC}\\r\\n]`, "g");
/** Each grapheme's width, as displayWidth gives it, kept: a screen reads the same few again and again. */
const widths = new Map<string, number>();
function widthOf(segment: string): number {
  let width = widths.get(segment);
  if (width === undefined) {
    width = displayWidth(segment);
    widths.set(segment, width);
  }
  return width;
}

export function terminalScreen(columns: number, bytes: string): Screen {
  const grid: string[][] = [];
  let row = 0;
  let col = 0;
  const at = (r: number): string[] => {
    while (grid.length <= r) grid.push([]);
    return grid[r] as string[];
  };
  const put = (segment: string) => {
    const width = widthOf(segment);
    if (col + width > columns) {
      row++;
      col = 0;
    }
    const line = at(row);
    while (line.length < col) line.push(" ");
    line[col] = segment;
    for (let i = 1; i < width; i++) line[col + i] = "";
    col += width;
  };
  let i = 0;
  while (i < bytes.length) {
    const ch = bytes[i] as string;
    if (ch === "\x1b") {
      CSI.lastIndex = i;
      const m = CSI.exec(bytes);
      if (m === null) throw new Error(`unknown escape at ${i}: ${JSON.stringify(bytes.slice(i, i + 8))}`);
      const [all, n, op] = m;
      if (op === "A") row = Math.max(0, row - Number(n === "" ? 1 : n));
      else if (op === "J" && (n === "" || n === "0")) {
        at(row).splice(col);
        grid.splice(row + 1);
      } else if (op === "K" && n === "2") at(row).splice(0);
      else throw new Error(`unknown escape ${JSON.stringify(all)}`);
      i += all.length;
      continue;
    }
    if (ch === "\n") {
      row++;
      col = 0;
      i++;
      continue;
    }
    if (ch === "\r") {
      col = 0;
      i++;
      continue;
    }
    CONTROL.lastIndex = i;
    const next = CONTROL.exec(bytes)?.index ?? bytes.length;
    const text = bytes.slice(i, next);
    for (const { segment } of graphemes.segment(text)) put(segment);
    i += text.length;
  }
  return {
    rows: () => {
      const out = grid.map((cells) => cells.join("").replace(/ +$/, ""));
      while (out.length > 0 && out.at(-1) === "") out.pop();
      return out;
    },
  };
}
