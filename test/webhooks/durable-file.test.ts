/**
 * The durable-log port on disk (cli/adapters/durable-file.ts): `syncAsync` is an fdatasync on
 * libuv's thread pool, so the descriptor must outlive it: a close while it runs waits for it, and a
 * replace (which swaps the file) while it runs is refused as the bug it would be.
 */
import { pbkdf2 } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { openFileLog } from "../../cli/adapters/durable-file.js";

const tempLog = () => join(mkdtempSync(join(tmpdir(), "campaignctl-durable-")), "log.jsonl");

describe("a file log synced off the event loop", () => {
  test("appends, then syncAsync resolves with the bytes on the file", async () => {
    const path = tempLog();
    const log = openFileLog(path);
    log.append("one\n");
    log.append("two\n");
    await log.syncAsync();
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\n");
    log.close();
  });

  test("a close while a sync runs waits for it: the sync settles without a closed descriptor", async () => {
    const log = openFileLog(tempLog());
    log.append("line\n");
    // Every thread of libuv's pool busy for a moment, so the sync surely runs after the close.
    const busy = Array.from({ length: Number(process.env.UV_THREADPOOL_SIZE ?? 4) }, () =>
      promisify(pbkdf2)("p", "s", 200_000, 32, "sha256"),
    );
    const synced = log.syncAsync();
    log.close();
    await expect(synced).resolves.toBeUndefined();
    await Promise.all(busy);
  });

  test("a replace while a sync runs is refused; after it, the log is replaced", async () => {
    const path = tempLog();
    const log = openFileLog(path);
    log.append("old\n");
    const synced = log.syncAsync();
    expect(() => log.replace("new\n")).toThrow(/replaced while a sync of it runs/);
    await synced;
    log.replace("new\n");
    log.append("after\n");
    await log.syncAsync();
    expect(readFileSync(path, "utf8")).toBe("new\nafter\n");
    log.close();
  });
});
