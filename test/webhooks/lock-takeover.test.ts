/**
 * Two starters over one stale lock (its holder killed): exactly one of them takes it over. The
 * interleaving is fixed by the test: the second starter reads the stale lock, and the first starter
 * takes it over completely before the second acts on what it read.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type LockIo, nodeLockIo, takeLock } from "../../cli/adapters/lock-file.js";

const GONE = 4_000_001;
const FIRST = 4_000_002;
const SECOND = 4_000_003;

/** The node:fs lock IO as process `pid`, where only FIRST and SECOND run; `afterRead` runs once after a read. */
function starter(pid: number, afterRead?: (text: string | null) => void): LockIo {
  let pending = afterRead;
  return {
    ...nodeLockIo,
    pid,
    boot: "this-boot",
    isRunning: (other) => other === FIRST || other === SECOND,
    read(path) {
      const text = nodeLockIo.read(path);
      const hook = pending;
      pending = undefined;
      hook?.(text);
      return text;
    },
  };
}

describe("taking over a stale lock", () => {
  test("two starters over one stale lock: the one that read it before the other took it over is refused, naming the other", () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-lock-race-"));
    const path = join(dir, "listener.pid");
    writeFileSync(path, `${GONE}\n`);
    let first: ReturnType<typeof takeLock> | null = null;
    const second = takeLock(
      path,
      starter(SECOND, (text) => {
        expect(text).toBe(`${GONE}\n`);
        first = takeLock(path, starter(FIRST));
      }),
    );
    expect(first).toMatchObject({ ok: true });
    expect(second).toEqual({ ok: false, pid: FIRST });
    expect(readFileSync(path, "utf8")).toBe(`${FIRST}\nboot this-boot\n`);
    expect(readdirSync(dir)).toEqual(["listener.pid"]);
  });

  test("a takeover marker left by a starter killed while taking over holds nothing up", () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-lock-race-"));
    const path = join(dir, "listener.pid");
    writeFileSync(path, `${GONE}\n`);
    writeFileSync(`${path}.takeover`, `${GONE + 10}\n`);
    const taken = takeLock(path, starter(FIRST));
    expect(taken.ok).toBe(true);
    expect(readFileSync(path, "utf8")).toBe(`${FIRST}\nboot this-boot\n`);
    if (taken.ok) taken.release();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a starter taking over right now (its marker, its process running) is named, and the lock is left alone", () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-lock-race-"));
    const path = join(dir, "listener.pid");
    writeFileSync(path, `${GONE}\n`);
    writeFileSync(`${path}.takeover`, `${FIRST}\n`);
    expect(takeLock(path, starter(SECOND))).toEqual({ ok: false, pid: FIRST });
    expect(readFileSync(path, "utf8")).toBe(`${GONE}\n`);
    // The same marker left from before a power cut (its process id now another program's) is stale.
    writeFileSync(`${path}.takeover`, `${FIRST}\nboot before-the-power-cut\n`);
    expect(takeLock(path, starter(SECOND)).ok).toBe(true);
    expect(readdirSync(dir)).toEqual(["listener.pid"]);
  });

  test("a lock taken in another boot (a power cut, and its process id now some other running program's) is taken over; one without a boot, or of this boot, is not", () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-lock-race-"));
    const path = join(dir, "listener.pid");
    writeFileSync(path, `${SECOND}\nboot this-boot\n`);
    expect(takeLock(path, starter(FIRST))).toEqual({ ok: false, pid: SECOND });
    writeFileSync(path, `${SECOND}\n`);
    expect(takeLock(path, starter(FIRST))).toEqual({ ok: false, pid: SECOND });
    writeFileSync(path, `${SECOND}\nboot before-the-power-cut\n`);
    expect(takeLock(path, starter(FIRST)).ok).toBe(true);
    expect(readFileSync(path, "utf8")).toBe(`${FIRST}\nboot this-boot\n`);
  });
});
