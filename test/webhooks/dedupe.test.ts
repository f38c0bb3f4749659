/**
 * The dedupe record (src/webhooks/dedupe.ts) and its file (cli/commands/webhooks-dedupe-file.ts):
 * by event id and by body key, bounded (the oldest forgotten first), a torn line skipped, the file
 * rewritten to the newest entries once it holds twice the capacity, and read back after a restart.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { openDedupeFile } from "../../cli/commands/webhooks-dedupe-file.js";
import { type DedupeEntry, DedupeRecord, dedupeLine, parseDedupeLines } from "../../src/webhooks/dedupe.js";
import { WorkQueue } from "../../src/webhooks/queue.js";

const entry = (n: number): DedupeEntry => ({
  event_id: `evt_${n}`,
  body_key: `message.sent:m-${n}`,
  kind: "message.sent",
  at: "2026-12-01T15:00:00.000Z",
});

describe("DedupeRecord", () => {
  test("knows an event by its id first, then by its body key", () => {
    const record = new DedupeRecord(10, [entry(1)]);
    expect(record.seen("evt_1", "message.sent:m-9")).toEqual({ kind: "duplicate-event", first: entry(1) });
    expect(record.seen("evt_new", "message.sent:m-1")).toEqual({ kind: "replayed-body", first: entry(1) });
    expect(record.seen("evt_new", "message.sent:m-9")).toEqual({ kind: "new" });
  });

  test("keeps the newest `capacity` entries, forgetting the oldest by id and by body", () => {
    const record = new DedupeRecord(3);
    for (let n = 1; n <= 5; n++) record.add(entry(n));
    expect(record.size).toBe(3);
    expect(record.entries().map((e) => e.event_id)).toEqual(["evt_3", "evt_4", "evt_5"]);
    expect(record.seen("evt_2", "x").kind).toBe("new");
    expect(record.seen("y", "message.sent:m-2").kind).toBe("new");
    expect(record.seen("y", "message.sent:m-3").kind).toBe("replayed-body");
  });

  test("refuses a capacity that is not a positive integer", () => {
    expect(() => new DedupeRecord(0)).toThrow(RangeError);
  });
});

describe("record lines", () => {
  test("round-trip, skipping a torn last line and lines that are not entries", () => {
    const text = `${dedupeLine(entry(1))}${dedupeLine(entry(2))}{"event_id":"evt_3","body_k\nnot json\n[1]\n{"event_id":""}\n`;
    expect(parseDedupeLines(text)).toEqual({ entries: [entry(1), entry(2)], skipped: 4 });
  });
});

describe("the record file", () => {
  test("is appended to, read back on the next start, and rewritten to the newest entries at twice the capacity", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-dedupe-"));
    const problems: unknown[] = [];
    const first = await openDedupeFile(dir, "state", (d) => problems.push(d), 3);
    if (!first.ok) throw new Error(first.diagnostic.message);
    for (let n = 1; n <= 6; n++) {
      first.file.record.add(entry(n));
      await first.file.append([entry(n)]);
    }
    const path = join(dir, "dedupe.jsonl");
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(6);
    first.file.record.add(entry(7));
    await first.file.append([entry(7)]);
    // 7 lines > 2 x 3: rewritten with the newest three.
    expect(parseDedupeLines(readFileSync(path, "utf8")).entries.map((e) => e.event_id)).toEqual([
      "evt_5",
      "evt_6",
      "evt_7",
    ]);
    await first.file.append([entry(8)]);
    await first.file.close();
    const again = await openDedupeFile(dir, "state", (d) => problems.push(d), 3);
    if (!again.ok) throw new Error(again.diagnostic.message);
    expect(again.file.record.entries().map((e) => e.event_id)).toEqual(["evt_6", "evt_7", "evt_8"]);
    await again.file.close();
    expect(problems).toEqual([]);
  });

  test("a --state that is a file is reported as webhooks.state-unusable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-dedupe-"));
    writeFileSync(join(dir, "taken"), "a file, not a directory");
    const opened = await openDedupeFile(join(dir, "taken"), "taken", () => {});
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.diagnostic.code).toBe("webhooks.state-unusable");
  });
});

describe("WorkQueue", () => {
  test("runs jobs in arrival order, a batch at a time, refuses beyond its limit, and drains", async () => {
    const done: number[] = [];
    const errors: unknown[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batches: number[][] = [];
    const queue = new WorkQueue<number>(
      async (batch) => {
        batches.push([...batch]);
        if (batch.includes(1)) await gate;
        if (batch.includes(4)) throw new Error("batch with 4 broke");
        done.push(...batch);
      },
      3,
      (e) => errors.push(e),
      2,
    );
    // 1 starts at once (a batch of one); 2, 3 and 4 wait (the limit is 3); 5 is refused.
    expect([1, 2, 3, 4, 5].map((n) => queue.push(n))).toEqual([true, true, true, true, false]);
    expect(queue.pending).toBe(4);
    release();
    await queue.drained();
    expect(batches).toEqual([[1], [2, 3], [4]]);
    expect(done).toEqual([1, 2, 3]);
    expect(errors.map(String)).toEqual(["Error: batch with 4 broke"]);
    expect(queue.pending).toBe(0);
  });
});
