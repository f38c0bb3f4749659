/**
 * The dedupe record (src/webhooks/dedupe.ts) and the record file it lives in (record.ts,
 * record-store.ts): by event id and by body key, bounded (the oldest forgotten first), a torn last
 * line cut off, the file rewritten to the newest entries once it holds twice the capacity, and
 * read back after a restart with what was not yet printed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { openRecordFile } from "../../cli/adapters/record-file.js";
import { type DedupeEntry, DedupeRecord } from "../../src/webhooks/dedupe.js";
import { eventLine, foldRecord, markerLine, type RecordedEvent } from "../../src/webhooks/record.js";

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

  test("addNew (an entry seen found new) remembers it as add does, forgetting the oldest beyond capacity", () => {
    const record = new DedupeRecord(2, [entry(1), entry(2)]);
    expect(record.seen("evt_3", "message.sent:m-3").kind).toBe("new");
    record.addNew(entry(3));
    expect(record.entries().map((e) => e.event_id)).toEqual(["evt_2", "evt_3"]);
    expect(record.seen("evt_3", "x")).toEqual({ kind: "duplicate-event", first: entry(3) });
    expect(record.seen("y", "message.sent:m-3")).toEqual({ kind: "replayed-body", first: entry(3) });
    expect(record.seen("evt_1", "message.sent:m-1").kind).toBe("new");
  });

  test("refuses a capacity that is not a positive integer", () => {
    expect(() => new DedupeRecord(0)).toThrow(RangeError);
  });
});

describe("record lines", () => {
  test("fold: events, printed up to the last marker, the outbox with attempt counts, lines not understood skipped", () => {
    const forwarded = (n: number): RecordedEvent => ({ ...recorded(n), forward: true });
    const text = [
      eventLine(forwarded(1)),
      eventLine(forwarded(2)),
      markerLine({ t: "printed", event_id: "evt_2" }),
      eventLine(forwarded(3)),
      markerLine({
        t: "forwarded",
        event_id: "evt_1",
        attempt: 1,
        at: "2026-12-01T15:00:01.000Z",
        status: 200,
      }),
      markerLine({
        t: "attempt",
        event_id: "evt_2",
        attempt: 2,
        at: "2026-12-01T15:00:01.000Z",
        status: 503,
        error: null,
        next_at: "2026-12-01T15:00:03.000Z",
      }),
      "not json\n[1]\n",
      `${JSON.stringify(entry(4))}\n`,
    ].join("");
    const state = foldRecord(Buffer.from(text));
    expect(state.events.map((e) => e.entry.event_id)).toEqual(["evt_1", "evt_2", "evt_3", "evt_4"]);
    expect(state.unprinted.map((e) => e.entry.event_id)).toEqual(["evt_3", "evt_4"]);
    expect([...state.outbox.keys()]).toEqual(["evt_2", "evt_3"]);
    expect(state.outbox.get("evt_2")).toMatchObject({
      attempts: 2,
      nextAt: Date.parse("2026-12-01T15:00:03Z"),
      lastStatus: 503,
    });
    expect(state.skipped).toBe(2);
    expect(state.torn).toBe(0);
    // An older record's entry (no body) is remembered for dedupe, never forwarded.
    expect(state.events[3]?.forward).toBe(false);
  });
});

describe("the record file", () => {
  test("is appended to, read back on the next start, and rewritten to the newest entries at twice the capacity", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-dedupe-"));
    const first = await openRecordFile(dir, "state", 3);
    if (!first.ok) throw new Error(first.diagnostic.message);
    const commit = async (n: number): Promise<void> => {
      first.file.record.add(entry(n));
      await first.file.commit([recorded(n)]);
      first.file.mark([{ t: "printed", event_id: `evt_${n}` }]);
      if (first.file.compactionDue()) first.file.compact();
    };
    for (let n = 1; n <= 3; n++) await commit(n);
    const path = join(dir, "dedupe.jsonl");
    // 3 events and 3 printed markers: not yet over 2 x 3 lines.
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(6);
    await commit(4);
    // 8 lines > 2 x 3: rewritten with the newest three and one printed marker.
    expect(foldRecord(readFileSync(path)).events.map((e) => e.entry.event_id)).toEqual([
      "evt_2",
      "evt_3",
      "evt_4",
    ]);
    expect(foldRecord(readFileSync(path)).unprinted).toEqual([]);
    await first.file.commit([recorded(5)]);
    first.file.record.add(entry(5));
    await first.file.close();
    const again = await openRecordFile(dir, "state", 3);
    if (!again.ok) throw new Error(again.diagnostic.message);
    expect(again.file.record.entries().map((e) => e.event_id)).toEqual(["evt_3", "evt_4", "evt_5"]);
    // evt_5 was flushed but never marked printed: the next start prints it.
    expect(again.file.recovery.unprinted.map((e) => e.entry.event_id)).toEqual(["evt_5"]);
    await again.file.close();
  });

  test("a torn last line is cut off on start and reported; the lines before it stand", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-dedupe-"));
    const path = join(dir, "dedupe.jsonl");
    const whole = eventLine(recorded(1));
    writeFileSync(path, `${whole}${eventLine(recorded(2)).slice(0, 40)}`);
    const opened = await openRecordFile(dir, "state", 10);
    if (!opened.ok) throw new Error(opened.diagnostic.message);
    expect(opened.file.recovery.torn).toBe(40);
    expect(opened.file.record.entries().map((e) => e.event_id)).toEqual(["evt_1"]);
    expect(readFileSync(path, "utf8")).toBe(whole);
    await opened.file.commit([recorded(3)]);
    await opened.file.close();
    expect(foldRecord(readFileSync(path)).events.map((e) => e.entry.event_id)).toEqual(["evt_1", "evt_3"]);
  });

  test("a --state that is a file is reported as webhooks.state-unusable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-dedupe-"));
    writeFileSync(join(dir, "taken"), "a file, not a directory");
    const opened = await openRecordFile(join(dir, "taken"), "taken");
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.diagnostic.code).toBe("webhooks.state-unusable");
  });
});

/** Event n as the record keeps it. */
function recorded(n: number): RecordedEvent {
  return {
    entry: entry(n),
    headers: { "x-event-id": `evt_${n}` },
    bodyBase64: Buffer.from(`{"n":${n}}`).toString("base64"),
    forward: false,
  };
}

describe("the record's lock", () => {
  test("a record held by a running process is refused (webhooks.state-locked); a lock left by a dead one is taken over", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-lock-"));
    const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    const pid = sleeper.pid as number;
    writeFileSync(join(dir, "listener.pid"), `${pid}\n`);
    const refused = await openRecordFile(dir, "state");
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.diagnostic.code).toBe("webhooks.state-locked");
      expect(refused.diagnostic.message).toContain(`process ${pid}`);
    }
    const exited = new Promise((resolve) => sleeper.once("exit", resolve));
    sleeper.kill("SIGKILL");
    await exited;
    const taken = await openRecordFile(dir, "state");
    if (!taken.ok) throw new Error(taken.diagnostic.message);
    expect(readFileSync(join(dir, "listener.pid"), "utf8").split("\n")[0]).toBe(String(process.pid));
    await taken.file.close();
    expect(() => readFileSync(join(dir, "listener.pid"))).toThrow();
  });
});
