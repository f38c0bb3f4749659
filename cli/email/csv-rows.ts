/**
 * Reads an email list's CSV file as a stream (csv-parse over a file stream, with backpressure:
 * memory does not grow with the number of rows) and yields each record's verdict (src/email/row-check.ts)
 * with its lines in the file. Only a regular file is read (a named pipe, a device, a socket or a
 * directory is refused at once, never waited on), and only as UTF-8 text: a UTF-16 file is refused
 * whole, a row with invalid UTF-8 or a NUL byte is refused (src/email/csv-text.ts). Problems of the
 * file as a whole (unreadable, UTF-16, unclosed quote, missing column) go to `onFileProblem`, and the
 * rows stop there.
 */
import { existsSync, realpathSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { parse } from "csv-parse";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { decodeCells, sniffCsvEncoding } from "../../src/email/csv-text.js";
import { DuplicateIndex } from "../../src/email/duplicate-index.js";
import type { EmailListSpec } from "../../src/email/model.js";
import {
  type CsvPlace,
  checkRow,
  csvRange,
  encodingRefusal,
  type HeaderPlan,
  headerEncoding,
  type RowVerdict,
  readHeader,
  utf16File,
} from "../../src/email/row-check.js";
import { openRegularFile } from "../adapters/regular-file.js";

/** A record as csv-parse gives it, read as Latin-1: one character per byte of the file. */
interface ParsedRecord {
  readonly record: string[];
  readonly raw: string;
  readonly info: { readonly lines: number; readonly bytes: number };
}

/** The verdict of every record of the list's CSV, in file order. */
export async function* csvVerdicts(
  list: EmailListSpec,
  cwd: string,
  requireConsent: boolean,
  onFileProblem: (diagnostics: readonly Diagnostic[]) => void,
): AsyncGenerator<RowVerdict, void, void> {
  const opened = await openCsv(list, cwd);
  if (!opened.ok) {
    onFileProblem([opened.diagnostic]);
    return;
  }
  try {
    yield* openedCsvVerdicts(opened, list, requireConsent, onFileProblem);
  } finally {
    await opened.handle.close();
  }
}

/** The CSV open for reading: its handle (the caller closes it) and the UTF-8 byte-order mark's bytes. */
export interface OpenedCsv {
  readonly handle: FileHandle;
  readonly bomBytes: number;
}

/**
 * The verdict of every record of a CSV already open (`openCsv`), read from its start: apply hashes
 * and reads the very file it opened, so nothing can swap the file between the digest and the rows.
 * The handle stays open (the caller closes it).
 */
export async function* openedCsvVerdicts(
  opened: OpenedCsv,
  list: EmailListSpec,
  requireConsent: boolean,
  onFileProblem: (diagnostics: readonly Diagnostic[]) => void,
): AsyncGenerator<RowVerdict, void, void> {
  const parser = parse({
    info: true,
    raw: true,
    // Bytes, not text: Latin-1 maps each byte to one character and back, so each cell is decoded
    // as UTF-8 strictly here (csv-parse's UTF-8 would put U+FFFD in silence), and lengths and
    // offsets count bytes. The UTF-8 byte-order mark is skipped by the read (csv-parse's own
    // would switch it to UTF-8).
    encoding: "latin1",
    bom: false,
    relax_column_count: true,
    skip_empty_lines: true,
    // A row that never ends (a quote never closed, a file without line breaks) would otherwise be
    // held in memory whole: past this size it is an error of the file, at the row where it starts.
    max_record_size: MAX_ROW_BYTES,
  });
  const stream = opened.handle.createReadStream({ start: opened.bomBytes, autoClose: false });
  stream.on("error", (error) => parser.destroy(error));
  stream.pipe(parser);
  const places = recordPlaces(parser, opened.bomBytes);
  let plan: HeaderPlan | undefined;
  let width = 0;
  const seen = new DuplicateIndex();
  try {
    for await (const chunk of parser as AsyncIterable<ParsedRecord>) {
      const { text, problem } = decodeCells(chunk.record);
      const place = places.next(chunk);
      if (plan === undefined) {
        const header = problem === undefined ? readHeader(text, list) : undefined;
        if (header?.ok !== true) {
          onFileProblem(
            problem === undefined ? (header?.diagnostics ?? []) : [headerEncoding(problem, list, place)],
          );
          return;
        }
        plan = header.plan;
        width = text.length;
        continue;
      }
      if (text.length !== width) yield widthRefusal(text, width, place, plan, list);
      else if (problem !== undefined) yield encodingRefusal(problem, text, place, plan, list);
      else yield checkRow(text, place, plan, list, requireConsent, seen);
    }
  } catch (error) {
    onFileProblem([fileProblem(list, error, places.nextLine())]);
    return;
  } finally {
    // A stream cut short is destroyed (which closes its handle, whatever autoClose says); one read
    // to its end leaves the handle open for the caller (apply looks at the file before each batch).
    if (!stream.readableEnded) stream.destroy();
  }
  if (plan === undefined)
    onFileProblem([
      {
        severity: "error",
        code: "email.csv-column-missing",
        message: `${list.csvPath} is empty: it needs a header row naming at least the column "${list.columns.email}"`,
        range: list.csvRange,
      },
    ]);
}

/** A row with more or fewer cells than the header: refused whole. */
function widthRefusal(
  text: readonly string[],
  width: number,
  place: CsvPlace,
  plan: HeaderPlan,
  list: EmailListSpec,
): RowVerdict {
  return {
    kind: "refuse",
    line: place.firstLine,
    email: text[plan.email] ?? "",
    diagnostics: [
      {
        severity: "error",
        code: "email.csv-malformed",
        message: `line ${place.firstLine}: ${text.length} columns where the header has ${width}`,
        range: csvRange(list.csvPath, place),
        hint: "quote values that contain commas, or fix the row",
      },
    ],
  };
}

/**
 * Where each record sits in the file (lines and byte offset), from csv-parse's counts; the records
 * must be given in order. `bomBytes`: bytes skipped before the parser's first byte.
 */
function recordPlaces(parser: ReturnType<typeof parse>, bomBytes: number) {
  let crlfInQuotes = 0;
  let lastRecordLine = 0;
  return {
    next(chunk: ParsedRecord): CsvPlace {
      const { raw } = chunk;
      const lead = raw.length - raw.replace(/^[\r\n]+/, "").length;
      const body = raw.slice(lead).replace(/\r?\n$|\r$/, "");
      // csv-parse counts the CR and the LF of a CRLF inside a quoted field as two lines: one each.
      for (const cell of chunk.record) crlfInQuotes += cell.split("\r\n").length - 1;
      const lastLine = chunk.info.lines - crlfInQuotes;
      const firstLine = lastLine - (body.match(/\r\n|\r|\n/g)?.length ?? 0);
      // With CRLF records csv-parse's raw keeps the CR of each record break, not its LF.
      const crlf = (parser.options.record_delimiter as Buffer[] | undefined)?.[0]?.toString() === "\r\n";
      const lost = (text: string): number => (crlf ? (text.match(/\r(?!\n)/g)?.length ?? 0) : 0);
      const rawBytes = raw.length + lost(raw);
      const leadBytes = lead + lost(raw.slice(0, lead));
      const offset = bomBytes + Math.max(0, chunk.info.bytes - rawBytes + leadBytes);
      lastRecordLine = lastLine;
      return { firstLine, lastLine, offset };
    },
    /** The line after the last record read, where an unclosed quote's row starts (blank lines aside). */
    nextLine: (): number => lastRecordLine + 1,
  };
}

/** The CSV opened for reading, or why it is not read (outside the repository, not a regular file, UTF-16). */
export async function openCsv(
  list: EmailListSpec,
  cwd: string,
): Promise<({ readonly ok: true } & OpenedCsv) | { readonly ok: false; readonly diagnostic: Diagnostic }> {
  const path = isAbsolute(list.csvPath) ? list.csvPath : join(cwd, list.csvPath);
  const unreadable = (message: string, hint: string) => ({
    ok: false as const,
    diagnostic: {
      severity: "error" as const,
      code: "email.csv-unreadable" as const,
      message,
      range: list.csvRange,
      hint,
    },
  });
  const outside = outsideRepository(path, isAbsolute(list.file) ? list.file : join(cwd, list.file), cwd);
  if (outside !== undefined)
    return unreadable(
      `${list.csvPath} (email list ${list.address}) lies outside the repository ${outside}: it is not read`,
      "keep the CSV inside the repository, beside the campaign file",
    );
  const opened = await openRegularFile(path);
  if (!opened.ok)
    return unreadable(
      `cannot read ${list.csvPath} (email list ${list.address}): ${opened.reason}`,
      opened.kind === "not-regular"
        ? "name a CSV file under csv: (only regular files are read; a pipe or a device would never end)"
        : "the path under csv: is relative to the campaign file",
    );
  const head = new Uint8Array(4);
  const { bytesRead } = await opened.handle.read(head, 0, 4, 0);
  const encoding = sniffCsvEncoding(head.subarray(0, bytesRead));
  if (encoding.kind === "utf-16") {
    await opened.handle.close();
    return { ok: false, diagnostic: utf16File(encoding, list) };
  }
  return { ok: true, handle: opened.handle, bomBytes: encoding.bomBytes };
}

/**
 * The repository root when the CSV's real path (symlinks followed) lies outside it, else undefined.
 * The root is the nearest directory above the campaign file that holds .git, or else the working
 * directory (the campaign file's own when it lies outside that). A file that cannot be resolved is left to the read (which reports it).
 */
function outsideRepository(csv: string, campaignFile: string, cwd: string): string | undefined {
  const inCwd = !relative(cwd, campaignFile).startsWith("..");
  let root = inCwd ? cwd : dirname(campaignFile);
  for (let dir = dirname(campaignFile); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) {
      root = dir;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(csv);
    realRoot = realpathSync(root);
  } catch {
    return undefined;
  }
  const rel = relative(realRoot, real);
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? root : undefined;
}

/** The longest row read, in bytes: far above any real contact (320 + 255 + a date + fields). */
export const MAX_ROW_BYTES = 1_048_576;

/** `nextLine`: the line after the last record read, where an unclosed quote's row starts (blank lines aside). */
function fileProblem(list: EmailListSpec, error: unknown, nextLine: number): Diagnostic {
  const e = error as { code?: string; message?: string; lines?: number };
  if (typeof e.code === "string" && /^E[A-Z]+$/.test(e.code))
    return {
      severity: "error",
      code: "email.csv-unreadable",
      message: `cannot read ${list.csvPath} (email list ${list.address}): ${e.code ?? e.message ?? String(error)}`,
      range: list.csvRange,
      hint: "the path under csv: is relative to the campaign file",
    };
  // csv-parse reports an unclosed quote at the file's end, and a row past the size limit where the
  // limit is crossed; the row it concerns is the next one after the last record read.
  const unclosed = e.code === "CSV_QUOTE_NOT_CLOSED";
  const oversized = e.code === "CSV_MAX_RECORD_SIZE";
  const line = unclosed || oversized ? nextLine : typeof e.lines === "number" ? e.lines : 1;
  const what = unclosed
    ? "a quote opened in this row is never closed"
    : oversized
      ? `this row is longer than ${MAX_ROW_BYTES.toLocaleString("en-US")} bytes (a quote never closed, or no line breaks)`
      : (e.message ?? String(error));
  return {
    severity: "error",
    code: "email.csv-malformed",
    message: `${list.csvPath} line ${line}: ${what}`,
    range: csvRange(list.csvPath, { firstLine: line, lastLine: line, offset: 0 }),
    hint: "fix the CSV (quotes must be closed); the list is not synced until it parses",
  };
}
