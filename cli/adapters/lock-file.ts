/**
 * A lock file holding the process id of its holder (the listener's `listener.pid`, the results
 * store's `.record.lock`) and the id of the boot it ran in (a line `boot <id>`, where the system
 * tells it). A lock whose holder is gone is taken over: its process is not running, or it was taken
 * in another boot (after a power cut the same process id is likely some other program's). Only one
 * starter may remove it, under a takeover marker, and only while it still names that gone process:
 * two starters over one stale lock must not both end up holding it.
 */
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

/** The file system and process table as takeLock uses them: node's, or a test's interleaving. */
export interface LockIo {
  /** This process's id, written into the lock. */
  readonly pid: number;
  /** This boot's id, written into the lock (null where the system does not tell it). */
  readonly boot: string | null;
  /** Whether a process with this id runs (a process we may not signal runs too). */
  isRunning(pid: number): boolean;
  /** Creates `path` holding `text`, whole at once; false when `path` exists already. */
  create(path: string, text: string): boolean;
  /** The text of `path`, or null when it is gone. */
  read(path: string): string | null;
  /** Removes `path`; nothing when it is gone. */
  remove(path: string): void;
}

/** The result of takeLock: held (release it when done), or the running process that holds it. */
export type LockTaken = { ok: true; release(): void } | { ok: false; pid: number };

/**
 * Takes the lock file at `path` (its content: this process's id), or names the running process that
 * holds it. A lock left by a process that is gone is taken over: the starter that creates
 * `<path>.takeover` first removes it, and only if it still names the gone process (another starter
 * may have taken it over meanwhile). Throws on an I/O error, or when the lock keeps changing.
 */
export function takeLock(path: string, io: LockIo = nodeLockIo): LockTaken {
  const marker = `${path}.takeover`;
  const mine = `${io.pid}\n${io.boot === null ? "" : `boot ${io.boot}\n`}`;
  for (let tries = 0; tries < 5; tries++) {
    if (io.create(path, mine))
      return {
        ok: true,
        release: () => {
          try {
            if (holderOf(io.read(path)) === io.pid) io.remove(path);
          } catch {
            // cannot be read or removed now: the next start finds its holder gone and takes it over
          }
        },
      };
    const text = io.read(path);
    if (text === null) continue; // removed meanwhile: try again
    const holder = holderOf(text);
    if (holder !== null && holder !== io.pid && sameBoot(text, io.boot) && io.isRunning(holder))
      return { ok: false, pid: holder };
    // Stale: its holder is gone. Only the starter holding the takeover marker removes it.
    if (!io.create(marker, mine)) {
      const taking = io.read(marker) ?? "";
      const taker = holderOf(taking);
      if (taker !== null && taker !== io.pid && sameBoot(taking, io.boot) && io.isRunning(taker))
        return { ok: false, pid: taker };
      io.remove(marker); // left by a starter killed while taking over
      continue;
    }
    try {
      if (io.read(path) === text) io.remove(path);
    } finally {
      io.remove(marker);
    }
  }
  throw new Error(`${path} keeps changing: another process is starting on the same directory`);
}

function holderOf(text: string | null): number | null {
  const pid = Number((text ?? "").split("\n")[0]?.trim() ?? "");
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Whether the lock `text` was taken in this boot (or either boot is unknown: then its process id is trusted). */
function sameBoot(text: string, boot: string | null): boolean {
  const taken = /^boot (\S+)$/m.exec(text)?.[1];
  return taken === undefined || boot === null || taken === boot;
}

function thisBoot(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
  } catch {
    return null;
  }
}

/** takeLock over node:fs: a lock is written whole to a file of its own, then linked into place. */
export const nodeLockIo: LockIo = {
  pid: process.pid,
  boot: thisBoot(),
  isRunning(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  },
  create(path, text) {
    const draft = `${path}.${process.pid}.new`;
    const fd = openSync(draft, "w", 0o600);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(draft, path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    } finally {
      unlinkSync(draft);
    }
  },
  read(path) {
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  },
  remove(path) {
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  },
};
