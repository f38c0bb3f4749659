/**
 * The one rule for every file a user names to the CLI (campaign files, an email list's CSV,
 * `--policy`, `--fixture`, a saved plan): only a regular file is read. The file is opened without
 * blocking (O_NONBLOCK: a named pipe with no writer would make the read wait for ever) and its kind
 * is read from the open descriptor, so nothing can swap the file between the check and the read. A
 * named pipe, a device, a socket or a directory is refused at once; `notRegularFile` is the
 * diagnostic (`cli.file-unreadable`, naming the flag and the path) where the reader has no code of its own.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { errnoCode } from "./files.js";

/** Why a file is not read: not a regular file (`reason` says what it is), or the open failed (`reason` its errno code). */
export interface Refusal {
  readonly ok: false;
  readonly kind: "not-regular" | "error";
  readonly reason: string;
}

/** The kinds of file `kindOf` tells apart. */
interface Kinded {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/** What a path that is not a regular file is, in words. */
function kindOf(stats: Kinded): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "not a regular file";
}

const notRegular = (stats: Kinded): Refusal => ({
  ok: false,
  kind: "not-regular",
  reason: `it is ${kindOf(stats)}, not a regular file`,
});
const failed = (error: unknown): Refusal => ({ ok: false, kind: "error", reason: errnoCode(error) });
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Opens `path` (symlinks followed) for reading when it is a regular file; else says why not. */
export async function openRegularFile(
  path: string,
): Promise<{ readonly ok: true; readonly handle: FileHandle } | Refusal> {
  let handle: FileHandle;
  try {
    handle = await open(path, FLAGS);
  } catch (error) {
    return failed(error);
  }
  try {
    const stats = await handle.stat();
    if (stats.isFile()) return { ok: true, handle };
    await handle.close();
    return notRegular(stats);
  } catch (error) {
    await handle.close();
    return failed(error);
  }
}

/** The bytes of `path` when it is a regular file; else why not. */
export async function readRegularFile(
  path: string,
): Promise<{ readonly ok: true; readonly bytes: Buffer } | Refusal> {
  const opened = await openRegularFile(path);
  if (!opened.ok) return opened;
  try {
    return { ok: true, bytes: await opened.handle.readFile() };
  } catch (error) {
    return failed(error);
  } finally {
    await opened.handle.close();
  }
}

/**
 * `readRegularFileSync` with the descriptor's stat (size, mtime) first: `read` is called only for a
 * regular file, with the stat, and may decline to read (a cached or too large file) by returning
 * without calling `bytes`.
 */
export function withRegularFileSync<T>(
  path: string,
  read: (stats: { readonly size: number; readonly mtimeMs: number }, bytes: () => Buffer) => T,
): { readonly ok: true; readonly value: T } | Refusal {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (error) {
    return failed(error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return notRegular(stats);
    return { ok: true, value: read(stats, () => readFileSync(fd)) };
  } catch (error) {
    return failed(error);
  } finally {
    closeSync(fd);
  }
}

/** The bytes of `path` when it is a regular file; else why not. Synchronous. */
export function readRegularFileSync(path: string): { readonly ok: true; readonly bytes: Buffer } | Refusal {
  const read = withRegularFileSync(path, (_stats, bytes) => bytes());
  return read.ok ? { ok: true, bytes: read.value } : read;
}

/** Whether `path` is a regular file that opens for reading, without reading it (for a reader elsewhere). */
export async function checkRegularFile(path: string): Promise<{ readonly ok: true } | Refusal> {
  const opened = await openRegularFile(path);
  if (!opened.ok) return opened;
  await opened.handle.close();
  return { ok: true };
}

/**
 * The refusal of a file that is not a regular file, for the reader that names it `what` (a flag,
 * `--policy`, words, `the saved plan`, or nothing for a path given alone): one code and one
 * wording for every such file.
 */
export function notRegularFile(what: string, shown: string, refusal: Refusal): Diagnostic {
  return {
    severity: "error",
    code: "cli.file-unreadable",
    message: `cannot read ${what === "" ? "" : `${what} `}${shown}: ${refusal.reason}`,
    hint: "name a regular file: a named pipe, a device or a socket is never read (the command would wait on it for ever)",
  };
}

/**
 * The paths a reader elsewhere will read (the embedded sandbox's `--fixture` and `--state`), each
 * under its flag, that are there but not regular files: refused here, before that reader would wait
 * on them. A missing path is left to the reader (it says what it expects there).
 */
export async function notRegularFiles(
  given: readonly { readonly flag: string; readonly shown: string; readonly path: string }[],
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const { flag, shown, path } of given) {
    const checked = await checkRegularFile(path);
    if (!checked.ok && checked.kind === "not-regular") out.push(notRegularFile(flag, shown, checked));
  }
  return out;
}
