/** Writing the files a command is asked for, and the errno of a failed file operation. */
import { randomBytes } from "node:crypto";
import { lstat, mkdir, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { Io } from "../output/io.js";

/** The `code` of a Node file-system error (`ENOENT`, `EACCES`, ...), or "unknown error". */
export function errnoCode(error: unknown): string {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : "unknown error";
}

/** A file to write: `path` relative to the working directory (and shown so), `what` names it in messages. */
export interface FileToSave {
  readonly path: string;
  readonly text: string;
  /** "plan", "Markdown report", "campaign file": "Wrote the {what} to {path}". */
  readonly what: string;
}

/**
 * Writes `text` to `file` (relative to the working directory) atomically (temp file + rename),
 * creating its directory, and says so on stderr. A failure is a diagnostic, never an exception.
 */
export async function saveFile(io: Io, file: string, text: string, what: string): Promise<Diagnostic[]> {
  return saveFiles(io, [{ path: file, text, what }]);
}

/**
 * Writes every file or none. Each is first staged as a temp file beside its target
 * (`<target>.<pid>-<random>.tmp`, created exclusively so it never replaces a file of the user's),
 * creating missing directories, and a target that is a directory is refused; only when all are
 * staged are they renamed into place, and then "Wrote the {what} to {path}" goes to stderr for each.
 * On a failure every temp file and every directory it created is removed, and the result is one
 * `cli.file-unwritable` naming the file. (A rename within a directory just written to does not
 * fail in practice; if one did, the files renamed before it would stay.) Never throws.
 * `announce: false`: no "Wrote" line, for a command whose own output names each file written
 * (`import`), so that a file is announced in one place only.
 */
export async function saveFiles(
  io: Io,
  files: readonly FileToSave[],
  options: { readonly announce?: boolean } = {},
): Promise<Diagnostic[]> {
  const made: string[] = [];
  const staged: Staged[] = [];
  let current: FileToSave | undefined;
  try {
    for (const file of files) {
      current = file;
      const path = resolve(io.cwd, file.path);
      const created = await mkdir(dirname(path), { recursive: true });
      if (created !== undefined) made.push(...between(created, dirname(path)));
      if (await isDirectory(path)) throw Object.assign(new Error(path), { code: "EISDIR" });
      staged.push({ file, path, temp: await stage(path, io.redact?.(file.text) ?? file.text) });
    }
    for (const s of staged) {
      current = s.file;
      await rename(s.temp, s.path);
      s.renamed = true;
    }
  } catch (error) {
    for (const s of staged) if (s.renamed !== true) await quietly(() => rm(s.temp, { force: true }));
    for (const dir of made.sort((a, b) => b.length - a.length)) await quietly(() => rmdir(dir));
    return current === undefined ? [] : [unwritable(current, error)];
  }
  if (options.announce !== false)
    for (const s of staged) io.stderr(`Wrote the ${s.file.what} to ${s.file.path}\n`);
  return [];
}

/** A file staged by `saveFiles`: its target and its temp file. */
interface Staged {
  readonly file: FileToSave;
  readonly path: string;
  readonly temp: string;
  renamed?: boolean;
}

/** Writes `text` to a new temp file beside `path`; a half-written one is removed, never another's file. */
async function stage(path: string, text: string): Promise<string> {
  const temp = tempName(path);
  try {
    await writeFile(temp, text, { encoding: "utf8", flag: "wx" });
    return temp;
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") await quietly(() => rm(temp, { force: true }));
    throw error;
  }
}

function tempName(path: string): string {
  return `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return false;
    throw error;
  }
}

/** The directories from `top` (the first one `mkdir -p` created) down to `dir`. */
function between(top: string, dir: string): string[] {
  const dirs: string[] = [];
  for (let d = dir; d.length > top.length; d = dirname(d)) dirs.push(d);
  return [...dirs, top];
}

async function quietly(undo: () => Promise<unknown>): Promise<void> {
  try {
    await undo();
  } catch {
    // Best effort: the diagnostic reports the first failure, which is the one the user can fix.
  }
}

function unwritable(file: FileToSave, error: unknown): Diagnostic {
  const code = errnoCode(error);
  return {
    severity: "error",
    code: "cli.file-unwritable",
    message: `cannot write the ${file.what} to ${file.path} (${code})`,
    hint:
      code === "EISDIR"
        ? "a directory is in the way: move it, or write somewhere else"
        : "check that the directory exists and is writable",
  };
}
