/**
 * Reads an email list's CSV file as a stream (csv-parse over a file stream, with backpressure:
 * memory does not grow with the number of rows) and yields each record's verdict (src/email/row-check.ts)
 * with its lines in the file. Problems of the file as a whole (unreadable, unclosed quote, missing
 * column) go to `onFileProblem`, and the rows stop there.
 */
import { createReadStream, existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { parse } from "csv-parse";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { DuplicateIndex } from "../../src/email/duplicate-index.js";
import type { EmailListSpec } from "../../src/email/model.js";
import {
  checkRow,
  csvRange,
  type HeaderPlan,
  type RowVerdict,
  readHeader,
} from "../../src/email/row-check.js";

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
  const path = isAbsolute(list.csvPath) ? list.csvPath : join(cwd, list.csvPath);
  const outside = outsideRepository(path, isAbsolute(list.file) ? list.file : join(cwd, list.file), cwd);
  if (outside !== undefined) {
    onFileProblem([
      {
        severity: "error",
        code: "email.csv-unreadable",
        message: `${list.csvPath} (email list ${list.address}) lies outside the repository ${outside}: it is not read`,
        range: list.csvRange,
        hint: "keep the CSV inside the repository, beside the campaign file",
      },
    ]);
    return;
  }
  const parser = parse({
    info: true,
    raw: true,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // A row that never ends (a quote never closed, a file without line breaks) would otherwise be
    // held in memory whole: past this size it is an error of the file, at the row where it starts.
    max_record_size: MAX_ROW_CHARACTERS,
  });
  const stream = createReadStream(path);
  let opened = true;
  stream.on("error", (error) => {
    opened = false;
    parser.destroy(error);
  });
  stream.pipe(parser);
  let plan: HeaderPlan | undefined;
  let width = 0;
  const seen = new DuplicateIndex();
  let crlfInQuotes = 0;
  let lastRecordLine = 0;
  try {
    for await (const chunk of parser as AsyncIterable<ParsedRecord>) {
      const { record, raw, info } = chunk;
      const lead = raw.length - raw.replace(/^[\r\n]+/, "").length;
      const body = raw.slice(lead).replace(/\r?\n$|\r$/, "");
      // csv-parse counts the CR and the LF of a CRLF inside a quoted field as two lines: one each.
      for (const cell of record) crlfInQuotes += cell.split("\r\n").length - 1;
      const lastLine = info.lines - crlfInQuotes;
      const firstLine = lastLine - (body.match(/\r\n|\r|\n/g)?.length ?? 0);
      // With CRLF records csv-parse's raw keeps the CR of each record break, not its LF.
      const crlf = (parser.options.record_delimiter as Buffer[] | undefined)?.[0]?.toString() === "\r\n";
      const fileBytes = (text: string): number =>
        Buffer.byteLength(text) + (crlf ? (text.match(/\r(?!\n)/g)?.length ?? 0) : 0);
      const offset = Math.max(0, info.bytes - fileBytes(raw) + fileBytes(raw.slice(0, lead)));
      const place = { firstLine, lastLine, offset };
      lastRecordLine = lastLine;
      if (plan === undefined) {
        const header = readHeader(record, list);
        if (!header.ok) {
          onFileProblem(header.diagnostics);
          return;
        }
        plan = header.plan;
        width = record.length;
        continue;
      }
      if (record.length !== width) {
        yield {
          kind: "refuse",
          line: firstLine,
          email: record[plan.email] ?? "",
          diagnostics: [
            {
              severity: "error",
              code: "email.csv-malformed",
              message: `line ${firstLine}: ${record.length} columns where the header has ${width}`,
              range: csvRange(list.csvPath, place),
              hint: "quote values that contain commas, or fix the row",
            },
          ],
        };
        continue;
      }
      yield checkRow(record, place, plan, list, requireConsent, seen);
    }
  } catch (error) {
    onFileProblem([fileProblem(list, error, opened, lastRecordLine + 1)]);
    return;
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

/** The longest row read, in characters: far above any real contact (320 + 255 + a date + fields). */
export const MAX_ROW_CHARACTERS = 1_048_576;

/** `nextLine`: the line after the last record read, where an unclosed quote's row starts (blank lines aside). */
function fileProblem(list: EmailListSpec, error: unknown, opened: boolean, nextLine: number): Diagnostic {
  const e = error as { code?: string; message?: string; lines?: number };
  if (!opened || (typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)))
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
      ? `this row is longer than ${MAX_ROW_CHARACTERS.toLocaleString("en-US")} characters (a quote never closed, or no line breaks)`
      : (e.message ?? String(error));
  return {
    severity: "error",
    code: "email.csv-malformed",
    message: `${list.csvPath} line ${line}: ${what}`,
    range: csvRange(list.csvPath, { firstLine: line, lastLine: line, offset: 0 }),
    hint: "fix the CSV (quotes must be closed); the list is not synced until it parses",
  };
}
