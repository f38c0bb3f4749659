/**
 * The durable-log port (src/webhooks/durable-log.ts) on disk: one file per log in a directory,
 * opened for appending (mode 0600), `sync` is fdatasync on this thread and `syncAsync` the same on
 * libuv's thread pool, `replace` writes a temporary file, syncs it and renames it over the log (a
 * crash leaves the old file or the new). Appends are synchronous writes (to the page cache: cheap,
 * and in order with the markers that follow them).
 */
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { DurableLog, LogDirectory } from "../../src/webhooks/durable-log.js";

/** The logs of directory `dir` (which must exist). */
export function fileLogDirectory(dir: string): LogDirectory {
  return {
    read(name) {
      try {
        return readFileSync(join(dir, name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return Buffer.alloc(0);
        throw error;
      }
    },
    open: (name) => openFileLog(join(dir, name)),
  };
}

/** The log at `path`, opened for appending (created when missing). */
export function openFileLog(path: string): DurableLog {
  let fd = openSync(path, "a", 0o600);
  let closed = false;
  /** fdatasyncs running on the thread pool: the descriptor stays open (and the same) until they settle. */
  let syncing = 0;
  let closeWhenSynced = false;
  const closeNow = (): void => {
    closeWhenSynced = false;
    closeSync(fd);
  };
  return {
    append(text) {
      naming(path, () => appendWhole(fd, text));
    },
    sync() {
      naming(path, () => fdatasyncSync(fd));
    },
    syncAsync() {
      syncing += 1;
      return new Promise<void>((resolve, reject) => {
        fdatasync(fd, (error) => {
          syncing -= 1;
          if (syncing === 0 && closeWhenSynced) closeNow();
          if (error === null) resolve();
          else reject(error);
        });
      });
    },
    truncate(length) {
      ftruncateSync(fd, length);
    },
    replace(text) {
      if (syncing > 0) throw new Error(`${path}: replaced while a sync of it runs`);
      const next = `${path}.${process.pid}.tmp`;
      const tmp = openSync(next, "w", 0o600);
      try {
        writeFileSync(tmp, text);
        fdatasyncSync(tmp);
      } finally {
        closeSync(tmp);
      }
      renameSync(next, path);
      closeSync(fd);
      fd = openSync(path, "a", 0o600);
    },
    close() {
      if (closed) return;
      closed = true;
      if (syncing > 0) closeWhenSynced = true;
      else closeNow();
    },
  };
}

/**
 * Runs `act` on the descriptor of `path`; a system error it throws (which names no file: the call
 * took a descriptor) is given `path`, so whoever reports it can say which file refused.
 */
function naming(path: string, act: () => void): void {
  try {
    act();
  } catch (error) {
    if (error instanceof Error && (error as NodeJS.ErrnoException).path === undefined)
      (error as NodeJS.ErrnoException).path = path;
    throw error;
  }
}

/**
 * Writes all of `text`: a write may take only part of it (a disk filling up, a file size limit) and
 * say so only in its count; the rest is written, or its error thrown, so a line is never appended
 * cut short while the sync after it succeeds (the event answered 200 and its line torn on disk).
 */
function appendWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}
