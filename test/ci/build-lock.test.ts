/**
 * One build of a tree at a time (scripts/build-lock.mjs): a second build waits for the first, saying
 * so, and runs only after it; a lock left by a killed build is taken over; the lock goes when the
 * build ends, whether it succeeded or threw. The two builds are real processes on a temporary tree;
 * each step waits for what the other process said, never for a time.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { BUILD_LOCK, withBuildLock } from "../../scripts/build-lock.mjs";

const LOCK_MODULE = fileURLToPath(new URL("../../scripts/build-lock.mjs", import.meta.url));

/** A process that takes the lock of `root`, says `took`, waits for its stdin to end, then writes `name` to `root/order`. */
function builder(root: string, name: string): ChildProcess {
  const script = `
    import { appendFileSync, readFileSync } from "node:fs";
    import { withBuildLock } from ${JSON.stringify(LOCK_MODULE)};
    withBuildLock(${JSON.stringify(root)}, () => {
      process.stdout.write("took\\n");
      readFileSync(0);
      appendFileSync(${JSON.stringify(join(root, "order"))}, ${JSON.stringify(name)});
    });`;
  return spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "pipe"] });
}

/** Resolves once `stream` has printed text matching `pattern`; returns all it printed so far. */
function said(stream: NodeJS.ReadableStream, pattern: RegExp): Promise<string> {
  let text = "";
  return new Promise((resolve, reject) => {
    stream.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) resolve(text);
    });
    stream.on("end", () => reject(new Error(`ended without ${pattern}: ${text}`)));
  });
}

const ended = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => child.on("close", (code) => resolve(code)));

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), "campaignctl-build-lock-"));
  mkdirSync(dirname(join(root, BUILD_LOCK)), { recursive: true });
  return root;
}

describe("the build lock", () => {
  test("a second build waits for the first, says so, and builds only after it", async () => {
    const root = tree();
    const first = builder(root, "first ");
    await said(first.stdout as NodeJS.ReadableStream, /took/);
    const second = builder(root, "second");
    const waiting = await said(second.stderr as NodeJS.ReadableStream, /waiting/);
    expect(waiting).toBe(
      `build: another build of this tree (pid ${first.pid}) is running: waiting for it to end\n`,
    );
    expect(existsSync(join(root, "order"))).toBe(false);
    first.stdin?.end();
    expect(await ended(first)).toBe(0);
    await said(second.stdout as NodeJS.ReadableStream, /took/);
    second.stdin?.end();
    expect(await ended(second)).toBe(0);
    expect(readFileSync(join(root, "order"), "utf8")).toBe("first second");
    expect(existsSync(join(root, BUILD_LOCK))).toBe(false);
  });

  test("a lock left by a build that no longer runs is taken over", () => {
    const root = tree();
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    writeFileSync(join(root, BUILD_LOCK), gone.stdout);
    expect(withBuildLock(root, () => readFileSync(join(root, BUILD_LOCK), "utf8"))).toBe(String(process.pid));
    expect(existsSync(join(root, BUILD_LOCK))).toBe(false);
  });

  test("the lock goes when the build throws", () => {
    const root = tree();
    expect(() =>
      withBuildLock(root, () => {
        throw new Error("tsc failed");
      }),
    ).toThrow("tsc failed");
    expect(existsSync(join(root, BUILD_LOCK))).toBe(false);
  });
});
