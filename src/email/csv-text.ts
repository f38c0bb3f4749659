/**
 * The bytes of an email list's CSV as text, strictly: the file is read as UTF-8, and what is not
 * UTF-8 text is said, never passed on. A UTF-16 file is recognised from its first bytes (its byte
 * order mark, or the NUL byte beside each ASCII letter of the header); a cell holding invalid UTF-8
 * or a NUL byte is found with its column and place, so its row is refused instead of sent with
 * U+FFFD where a name was, or with a NUL. Pure.
 */
import { Buffer, isUtf8 } from "node:buffer";

/** How a CSV file's first bytes say it is encoded. */
export type CsvEncoding =
  | {
      readonly kind: "utf-8" /** Bytes of a UTF-8 byte order mark to skip (0 or 3). */;
      readonly bomBytes: 0 | 3;
    }
  | { readonly kind: "utf-16"; readonly order: "little-endian" | "big-endian"; readonly bom: boolean };

/** The encoding the first bytes of a file (at least 4 when the file has them) show. */
export function sniffCsvEncoding(head: Uint8Array): CsvEncoding {
  const [a, b, c, d] = head;
  if (a === 0xef && b === 0xbb && c === 0xbf) return { kind: "utf-8", bomBytes: 3 };
  if (a === 0xff && b === 0xfe) return { kind: "utf-16", order: "little-endian", bom: true };
  if (a === 0xfe && b === 0xff) return { kind: "utf-16", order: "big-endian", bom: true };
  // A header starts with ASCII letters: in UTF-16 each is its byte beside a NUL.
  if (a !== undefined && a !== 0 && b === 0 && (d === undefined || d === 0) && c !== 0)
    return { kind: "utf-16", order: "little-endian", bom: false };
  if (a === 0 && b !== undefined && b !== 0 && (c === undefined || c === 0))
    return { kind: "utf-16", order: "big-endian", bom: false };
  return { kind: "utf-8", bomBytes: 0 };
}

/** What is wrong with one cell: not UTF-8, or a NUL byte. `at` is the byte's offset in the cell. */
export interface CellProblem {
  readonly column: number;
  readonly kind: "invalid-utf8" | "nul";
  readonly at: number;
  readonly byte: number;
}

/** ASCII without NUL: the common cell, the same text in Latin-1 and UTF-8. */
function plainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0 || c > 0x7f) return false;
  }
  return true;
}

/**
 * The cells as UTF-8 text, and the first cell problem, if any. Each cell comes as read in Latin-1
 * (one character per byte of the file). The text of a cell with a problem is its lenient decoding
 * (U+FFFD for invalid bytes): for showing which row it was, never for sending.
 */
export function decodeCells(latin1Cells: readonly string[]): {
  readonly text: readonly string[];
  readonly problem: CellProblem | undefined;
} {
  let problem: CellProblem | undefined;
  const text = latin1Cells.map((cell, column) => {
    if (plainAscii(cell)) return cell;
    const bytes = Buffer.from(cell, "latin1");
    problem ??= cellProblem(bytes, column);
    return bytes.toString("utf8");
  });
  return { text, problem };
}

function cellProblem(cell: Uint8Array, column: number): CellProblem | undefined {
  const nul = cell.indexOf(0);
  const valid = isUtf8(cell);
  if (valid && nul < 0) return undefined;
  const invalid = valid ? -1 : firstInvalidUtf8(cell);
  const at = nul >= 0 && (invalid < 0 || nul < invalid) ? nul : invalid;
  return { column, kind: at === nul ? "nul" : "invalid-utf8", at, byte: cell[at] ?? 0 };
}

/**
 * The offset of the first byte of `bytes` that does not begin or continue a well-formed UTF-8
 * sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF); -1 when all are.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    // The sequence's length and the range its second byte must fall in (RFC 3629, section 4).
    const [length, low, high] =
      b >= 0xc2 && b <= 0xdf
        ? [2, 0x80, 0xbf]
        : b === 0xe0
          ? [3, 0xa0, 0xbf]
          : b === 0xed
            ? [3, 0x80, 0x9f]
            : b >= 0xe1 && b <= 0xef
              ? [3, 0x80, 0xbf]
              : b === 0xf0
                ? [4, 0x90, 0xbf]
                : b === 0xf4
                  ? [4, 0x80, 0x8f]
                  : b >= 0xf1 && b <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : [0, 0, 0];
    if (length === 0) return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (next === undefined || next < min || next > max) return i;
    }
    i += length;
  }
  return -1;
}
