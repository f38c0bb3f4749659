/**
 * The results store as files in the repository (docs/results.md "The files"): append-only JSON
 * Lines, one file per organization and month of the API's clock, `<dir>/<organization>/<YYYY-MM>.jsonl`,
 * every line a snapshot (schemas/results-snapshot.schema.json), so git keeps the history and a
 * reviewer reads it.
 *
 * Writing takes `<dir>/.record.lock` (two recordings at once would each miss the other's lines when
 * applying the write rule), reads what the rule needs of the whole store (a project's latest
 * snapshot may be months old, or in another organization's files: `storedSnapshots`), then, per
 * file (one batch): checks every line, applies the write rule (src/results/write-rule.ts), and writes
 * the file's lines followed by the batch's through a synced temporary file renamed over it. The
 * content only ever grows by whole lines at its end (append-only, as git shows it), and a kill at
 * any moment leaves each file as it was or with its whole batch: never a torn line. A torn last
 * line found anyway (a copy cut short, a hand edit) is cut, loudly, and `results` skips it.
 */
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import {
  monthOf,
  organizationDirectory,
  type ResultsSnapshot,
  snapshotKey,
} from "../../src/results/snapshot.js";
import { checkSnapshotLine } from "../../src/results/snapshot-check.js";
import type { ReadOutcome, ResultsStore, WriteOutcome } from "../../src/results/store.js";
import { chooseWrites, latestByProject } from "../../src/results/write-rule.js";
import { wholeLines } from "../../src/webhooks/durable-log.js";
import { errnoCode } from "./files.js";
import { takeLock } from "./lock-file.js";

/** The lock file's name inside the store's directory. */
export const RESULTS_LOCK_FILE = ".record.lock";

const MONTH_FILE = /^(\d{4}-\d{2})\.jsonl$/;

/** The file store at `dir` (absolute), named `shown` (as the user gave it) in messages. */
export function openFileStore(dir: string, shown: string): ResultsStore {
  return {
    name: shown,
    write: async (snapshots) => writeFiles(dir, shown, snapshots),
    read: async (untilMs) => readFiles(dir, shown, untilMs),
    close: async () => undefined,
  };
}

/** One file's lines as read: the snapshots, the problems, and the torn tail's length. */
interface FileLines {
  /** The file's whole lines (up to and with its last newline). */
  readonly text: string;
  readonly snapshots: ResultsSnapshot[];
  readonly problems: Diagnostic[];
  readonly torn: number;
}

function lineRange(file: string, line: number): Diagnostic["range"] {
  return { file, start: { line, column: 1, offset: 0 }, end: { line, column: 1, offset: 0 } };
}

/** Reads and checks one file (missing: empty). */
function readLines(path: string, shownPath: string): FileLines {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return { text: "", snapshots: [], problems: [], torn: 0 };
    return {
      text: "",
      snapshots: [],
      problems: [unusable(shownPath, `cannot be read (${errnoCode(error)})`)],
      torn: 0,
    };
  }
  const { text, torn } = wholeLines(bytes);
  const snapshots: ResultsSnapshot[] = [];
  const problems: Diagnostic[] = [];
  text.split("\n").forEach((line, i) => {
    if (line === "") return;
    const checked = checkSnapshotLine(line);
    if (checked.ok) snapshots.push(checked.snapshot);
    else
      problems.push({
        severity: "error",
        code: "results.store-invalid",
        message: `${shownPath}:${i + 1}: ${checked.why}`,
        range: lineRange(shownPath, i + 1),
        hint: "the results files are written by `campaignctl results record` only: restore the file from git (`git checkout -- <file>`), then record again",
      });
  });
  return { text, snapshots, problems, torn };
}

function unusable(shownPath: string, why: string): Diagnostic {
  return {
    severity: "error",
    code: "results.store-unusable",
    message: `the results store's file ${shownPath} ${why}`,
    hint: "check the directory's permissions and free space, then record again",
  };
}

/** Every organization directory of the store (hidden ones, the lock's, excepted), sorted. */
function organizationDirectories(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
}

/**
 * What the write rule needs of the store for `candidates`: every snapshot of the months of their
 * hours and after, then of older months, newest first, until each candidate's project has been met
 * (its latest snapshot is in the newest month that holds it, whatever the organization's file). A
 * recording whose projects all moved lately reads a month or two; a new project reads everything.
 * Only lines that read as snapshots: a file with a bad line is refused where it is written or read
 * (`results.store-invalid`), not here.
 */
function storedSnapshots(dir: string, candidates: readonly ResultsSnapshot[]): ResultsSnapshot[] {
  const byMonth = new Map<string, string[]>();
  for (const organization of organizationDirectories(dir))
    for (const name of readdirSync(join(dir, organization))) {
      const month = MONTH_FILE.exec(name)?.[1];
      if (month !== undefined)
        byMonth.set(month, [...(byMonth.get(month) ?? []), join(dir, organization, name)]);
    }
  const unmet = new Set(candidates.map((s) => s.project_id));
  const first = candidates.reduce((m, s) => (monthOf(s.hour) < m ? monthOf(s.hour) : m), "9999-99");
  const out: ResultsSnapshot[] = [];
  for (const month of [...byMonth.keys()].sort().reverse()) {
    if (month < first && unmet.size === 0) break;
    for (const path of byMonth.get(month) ?? [])
      for (const s of readLines(path, path).snapshots) {
        out.push(s);
        unmet.delete(s.project_id);
      }
  }
  return out;
}

async function writeFiles(
  dir: string,
  shown: string,
  snapshots: readonly ResultsSnapshot[],
): Promise<WriteOutcome> {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    return { ok: false, diagnostics: [unusable(shown, `cannot be created (${errnoCode(error)})`)] };
  }
  let lock: ReturnType<typeof takeLock>;
  try {
    lock = takeLock(join(dir, RESULTS_LOCK_FILE));
  } catch (error) {
    return {
      ok: false,
      diagnostics: [unusable(join(shown, RESULTS_LOCK_FILE), `cannot be taken (${errnoCode(error)})`)],
    };
  }
  if (!lock.ok)
    return {
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "results.store-locked",
          message: `another recording (process ${lock.pid}) is writing the results store ${shown}`,
          hint: "let it finish, then record again: two recordings at once would each miss the other's snapshots",
        },
      ],
    };
  try {
    return writeBatches(dir, shown, snapshots);
  } finally {
    lock.release();
  }
}

function writeBatches(dir: string, shown: string, snapshots: readonly ResultsSnapshot[]): WriteOutcome {
  const groups = new Map<string, ResultsSnapshot[]>();
  for (const s of snapshots) {
    const file = join(
      organizationDirectory(s.organization_name, s.organization_id),
      `${monthOf(s.hour)}.jsonl`,
    );
    const group = groups.get(file) ?? [];
    group.push(s);
    groups.set(file, group);
  }
  // What is stored of these projects, whatever its organization or month: a project's latest
  // snapshot may be months old (a project listed by an older window that has not moved since), or in
  // another organization's files (a project moved), as the database store finds it.
  let stored: ResultsSnapshot[];
  try {
    stored = storedSnapshots(dir, snapshots);
  } catch (error) {
    return { ok: false, diagnostics: [unusable(shown, `cannot be listed (${errnoCode(error)})`)] };
  }
  const diagnostics: Diagnostic[] = [];
  const places: string[] = [];
  let written = 0;
  let sameHour = 0;
  let unchanged = 0;
  let failed = false;
  for (const file of [...groups.keys()].sort()) {
    // In a stable order, whatever order the keys answered in: a file's lines diff cleanly in review.
    const batch = (groups.get(file) ?? []).sort((a, b) =>
      a.hour !== b.hour
        ? a.hour < b.hour
          ? -1
          : 1
        : a.project_id < b.project_id
          ? -1
          : a.project_id > b.project_id
            ? 1
            : 0,
    );
    const done = writeBatch(dir, shown, file, batch, stored);
    diagnostics.push(...done.diagnostics);
    if (!done.ok) {
      failed = true;
      continue;
    }
    written += done.written;
    sameHour += done.sameHour;
    unchanged += done.unchanged;
    if (done.written > 0) places.push(join(shown, file));
  }
  if (failed && written + sameHour + unchanged === 0) return { ok: false, diagnostics };
  return { ok: true, written, sameHour, unchanged, places, diagnostics };
}

/**
 * Applies the write rule to one file and writes its batch: the file's whole lines and the batch's
 * lines to a temporary file beside it, synced, renamed over it, the directory synced. A kill at any
 * moment leaves the old file or the new one, each of whole lines (a stray temporary file is removed
 * by the next recording and never read).
 */
function writeBatch(
  dir: string,
  shown: string,
  file: string,
  batch: readonly ResultsSnapshot[],
  stored: readonly ResultsSnapshot[],
): WriteOutcome {
  const path = join(dir, file);
  const shownPath = join(shown, file);
  const diagnostics: Diagnostic[] = [];
  const current = readLines(path, shownPath);
  if (current.problems.length > 0) return { ok: false, diagnostics: current.problems };
  const chosen = chooseWrites(batch, {
    keys: new Set([...stored, ...current.snapshots].map(snapshotKey)),
    latest: latestByProject([...stored, ...current.snapshots]),
  });
  if (current.torn > 0)
    diagnostics.push({
      severity: "warning",
      code: "results.torn-line-cut",
      message: `${shownPath}: its last line was cut short (${current.torn} bytes without a newline: a write interrupted, or a copy cut short); it was cut off, and this recording writes its snapshots again`,
      range: lineRange(shownPath, current.snapshots.length + 1),
      hint: "nothing to do: no whole line was lost; commit the file as it is now",
    });
  try {
    const folder = join(dir, file, "..");
    mkdirSync(folder, { recursive: true });
    removeStrayTemporaries(folder, basename(path));
    if (chosen.write.length > 0 || current.torn > 0)
      replaceFile(path, current.text + chosen.write.map((s) => `${JSON.stringify(s)}\n`).join(""));
  } catch (error) {
    return {
      ok: false,
      diagnostics: [...diagnostics, unusable(shownPath, `cannot be written (${errnoCode(error)})`)],
    };
  }
  return {
    ok: true,
    written: chosen.write.length,
    sameHour: chosen.sameHour,
    unchanged: chosen.unchanged,
    places: [],
    diagnostics,
  };
}

/** The temporary file a recording writes `name` through: `<name>.<pid>.tmp` (never read as a month). */
const temporaryOf = (name: string): string => `${name}.${process.pid}.tmp`;

/** Removes temporary files of `name` left by a killed recording (the lock says none is running). */
function removeStrayTemporaries(folder: string, name: string): void {
  for (const entry of readdirSync(folder))
    if (entry.startsWith(`${name}.`) && entry.endsWith(".tmp")) rmSync(join(folder, entry), { force: true });
}

/** Replaces `path` by `text` atomically and durably: temporary file, fdatasync, rename, directory fsync. */
function replaceFile(path: string, text: string): void {
  const temporary = join(path, "..", temporaryOf(basename(path)));
  const fd = openSync(temporary, "w", 0o644);
  try {
    writeFileSync(fd, text);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  syncDirectory(join(path, ".."));
}

/** Makes a new file's name durable: fsync of its directory. */
function syncDirectory(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function readFiles(dir: string, shown: string, untilMs: number): Promise<ReadOutcome> {
  if (!existsSync(dir))
    return {
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "results.store-missing",
          message: `there is no results store at ${shown}`,
          hint: "record first (`campaignctl results record`), or give the store with --dir (or --store postgres)",
        },
      ],
    };
  const lastMonth = monthOf(new Date(untilMs - 1).toISOString());
  const snapshots: ResultsSnapshot[] = [];
  const diagnostics: Diagnostic[] = [];
  let organizations: string[];
  try {
    organizations = organizationDirectories(dir);
  } catch (error) {
    return { ok: false, diagnostics: [unusable(shown, `cannot be listed (${errnoCode(error)})`)] };
  }
  for (const organization of organizations) {
    const months = readdirSync(join(dir, organization))
      .flatMap((name) => {
        const month = MONTH_FILE.exec(name)?.[1];
        return month === undefined || month > lastMonth ? [] : [name];
      })
      .sort();
    for (const name of months) {
      const shownPath = join(shown, organization, name);
      const lines = readLines(join(dir, organization, name), shownPath);
      diagnostics.push(...lines.problems);
      if (lines.torn > 0)
        diagnostics.push({
          severity: "warning",
          code: "results.torn-line-cut",
          message: `${shownPath}: its last line is cut short (${lines.torn} bytes without a newline: a write interrupted, or a copy cut short); it is not read`,
          range: lineRange(shownPath, lines.snapshots.length + 1),
          hint: "the next `campaignctl results record` cuts it off and records that hour again",
        });
      for (const s of lines.snapshots) if (Date.parse(s.at) < untilMs) snapshots.push(s);
    }
  }
  if (diagnostics.some((d) => d.severity === "error")) return { ok: false, diagnostics };
  return { ok: true, snapshots, diagnostics };
}
