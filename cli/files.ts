/** Writing the files a command is asked for, and the errno of a failed file operation. */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { copyFile, link, lstat, mkdir, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import type { Io } from "./io.js";

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
 * creating missing directories; only when all are staged are they renamed into place, and then
 * "Wrote the {what} to {path}" goes to stderr for each. On a failure (a target that is a directory,
 * a directory that cannot be written, ...) every temp file is removed, the files already renamed
 * are put back as they were (best effort: only a failing rename can get that far), directories it
 * created are removed, and the result is one `cli.file-unwritable` naming the file. Never throws.
 */
export async function saveFiles(io: Io, files: readonly FileToSave[]): Promise<Diagnostic[]> {
  const made: string[] = [];
  const staged: Staged[] = [];
  const renamed: Staged[] = [];
  let current: FileToSave | undefined;
  try {
    for (const file of files) {
      current = file;
      const path = resolve(io.cwd, file.path);
      const created = await mkdir(dirname(path), { recursive: true });
      if (created !== undefined) made.push(...between(created, dirname(path)));
      if ((await kindOf(path)) === "directory") throw Object.assign(new Error(path), { code: "EISDIR" });
      staged.push({ file, path, temp: await stage(path, file.text) });
    }
    // Any rename but the last may need undoing: keep the file it replaces until all are in place.
    for (const s of staged.slice(0, -1)) {
      current = s.file;
      if ((await kindOf(s.path)) !== "absent") s.backup = await keepCopy(s.path);
    }
    for (const s of staged) {
      current = s.file;
      await rename(s.temp, s.path);
      renamed.push(s);
    }
  } catch (error) {
    for (const s of renamed.reverse())
      await quietly(() => (s.backup === undefined ? rm(s.path, { force: true }) : rename(s.backup, s.path)));
    for (const s of staged) await removeTemps(s);
    for (const dir of made.sort((a, b) => b.length - a.length)) await quietly(() => rmdir(dir));
    return current === undefined ? [] : [unwritable(current, error)];
  }
  for (const s of staged) await removeTemps({ ...s, temp: undefined });
  for (const s of staged) io.stderr(`Wrote the ${s.file.what} to ${s.file.path}\n`);
  return [];
}

/** A file staged by `saveFiles`: its target, its temp file, and the copy of the file it replaces. */
interface Staged {
  readonly file: FileToSave;
  readonly path: string;
  readonly temp: string;
  backup?: string;
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

async function removeTemps(s: { readonly temp?: string | undefined; readonly backup?: string | undefined }) {
  for (const file of [s.temp, s.backup])
    if (file !== undefined) await quietly(() => rm(file, { force: true }));
}

function tempName(path: string): string {
  return `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
}

async function kindOf(path: string): Promise<"absent" | "directory" | "other"> {
  try {
    return (await lstat(path)).isDirectory() ? "directory" : "other";
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return "absent";
    throw error;
  }
}

/** A second name (a hard link, or a copy where links are not supported) for the file at `path`. */
async function keepCopy(path: string): Promise<string> {
  const backup = tempName(path);
  try {
    await link(path, backup);
  } catch {
    await copyFile(path, backup, constants.COPYFILE_EXCL);
  }
  return backup;
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
