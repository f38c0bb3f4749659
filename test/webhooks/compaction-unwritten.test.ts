/**
 * The record's compaction and the events still on their way to disk (issue 36). The compaction
 * rewrites the record from the dedupe index and marks everything in it printed; an event already
 * in the index but queued for its own write (it arrived during the flush before) must be left out:
 * written there as printed, a crash before its own flush would turn the sender's retry into a
 * duplicate, answered 200 and never printed. Here the record is in memory and each flush settles
 * when the test releases it, so the crash lands exactly between the compaction and that flush.
 */
import { describe, expect, test } from "vitest";
import type { DurableLog } from "../../src/webhooks/durable-log.js";
import type { Answer, ListenerNote } from "../../src/webhooks/receiver.js";
import { openRecordStore } from "../../src/webhooks/record-store.js";
import { MemoryLogs } from "../support/memory-log.js";
import { signedDelivery, testReceiver } from "./harness.js";

/**
 * `logs` whose flushes start only when the test releases them, in order (then covering what was
 * written by then, which only makes a crash keep more).
 */
function heldLogs(logs: MemoryLogs) {
  const held: (() => void)[] = [];
  return {
    held,
    dir: {
      read: (name: string) => logs.read(name),
      open: (name: string): DurableLog => {
        const log = logs.open(name);
        return {
          ...log,
          syncAsync: () =>
            new Promise<void>((resolve) => held.push(() => void log.syncAsync().then(resolve))),
        };
      },
    },
  };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await turn();
}

describe("compaction with events queued for the disk", () => {
  test("an event queued while the record is compacted is left out of it: after a crash before its flush, its retry is taken on and printed", async () => {
    const logs = new MemoryLogs();
    const { held, dir } = heldLogs(logs);
    // Capacity 2: the record is compacted past 4 lines.
    const opened = openRecordStore(dir, "state/dedupe.jsonl", 2);
    if (!opened.ok) throw new Error(opened.diagnostic.message);
    const receiver = testReceiver(opened.file);
    const answered = async (promise: Promise<Answer>): Promise<number> => {
      for (let i = 0; i < 20 && held.length === 0; i++) await turn();
      held.shift()?.();
      return (await promise).status;
    };
    expect(await answered(receiver.receive(signedDelivery(1)))).toBe(200);
    expect(await answered(receiver.receive(signedDelivery(2)))).toBe(200);
    // evt_3's flush runs; evt_4 arrives meanwhile and waits for the next flush.
    const third = receiver.receive(signedDelivery(3));
    await turns(3);
    expect(held).toHaveLength(1);
    const fourth = receiver.receive(signedDelivery(4));
    void fourth;
    await turns(2);
    expect(await answered(third)).toBe(200);
    // The record is over 4 lines: compacted now, with evt_4 remembered but not written.
    await turns(10);
    expect(logs.ops.some((op) => op.op === "replace")).toBe(true);
    expect(held).toHaveLength(1);
    // A power cut before evt_4's flush: its sender never got an answer and sends it again.
    logs.crash();
    const again = openRecordStore(logs, "state/dedupe.jsonl", 2);
    if (!again.ok) throw new Error(again.diagnostic.message);
    expect(again.file.recovery.unprinted).toEqual([]);
    const notes: ListenerNote[] = [];
    const restarted = testReceiver(again.file, (note) => notes.push(note));
    const retry = await restarted.receive(signedDelivery(4));
    expect(retry.status).toBe(200);
    expect(JSON.parse(retry.body)).toEqual({ received: true, event_id: "evt_4" });
    expect(notes.map((n) => (n.type === "accepted" ? `accepted ${n.event.eventId}` : n.type))).toEqual([
      "accepted evt_4",
    ]);
  });
});
