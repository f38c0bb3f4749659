/**
 * "A receiver acknowledges only what is on disk" (design principle 12; issue 33, point 6), made
 * observable: the listener's record writes through the durable-log port, here an in-memory log that
 * records every operation in order and keeps apart what a sync made durable. An acknowledgement (the
 * sender seeing the listener's 200 over HTTP) that comes before the sync covering its event fails
 * these tests, and so does one whose event a crash at that moment would lose. The last test shows
 * that the check fails when the sync is lost.
 */
import { afterEach, describe, expect, test } from "vitest";
import { DEDUPE_FILE_NAME, openRecordStore, type RecordFile } from "../../src/webhooks/record-store.js";
import { type ListenerServer, startListenerServer } from "../../src/webhooks/server.js";
import type { Delivery } from "../../src/webhooks/types.js";
import { acknowledgedBeforeSync, type LogOp, MemoryLogs } from "../support/memory-log.js";
import { signedDelivery, testReceiver } from "./harness.js";

const holds = (what: string, text: string) => text.includes(`"event_id":"${what}"`);

function recordIn(logs: MemoryLogs): RecordFile {
  const opened = openRecordStore(logs, "state/dedupe.jsonl");
  if (!opened.ok) throw new Error(opened.diagnostic.message);
  return opened.file;
}

/** The operations in short: `append evt_1,evt_2`, `append printed`, `sync`, `ack evt_1`. */
function brief(ops: readonly LogOp[]): string[] {
  return ops.map((o) => {
    switch (o.op) {
      case "append": {
        const ids = [...o.text.matchAll(/"event_id":"([^"]+)"/g)].map((m) => m[1]);
        return o.text.includes('"t":"printed"') ? "append printed" : `append ${ids.join(",")}`;
      }
      case "ack":
        return `ack ${o.what}`;
      default:
        return o.op;
    }
  });
}

let server: ListenerServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function post(url: string, delivery: Delivery): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: delivery.headers as Record<string, string>,
    body: new Uint8Array(delivery.body),
  });
  await response.arrayBuffer();
  return response.status;
}

describe("the listener acknowledges only what a sync made durable", () => {
  test("over HTTP: every 200 reaches the sender after the sync that covers its event, and a crash then keeps it", async () => {
    const logs = new MemoryLogs();
    const started = await startListenerServer(testReceiver(recordIn(logs)), "127.0.0.1", 0);
    if (!started.ok) throw new Error(started.failure.message);
    server = started.server;
    const url = started.server.url;
    const seen: { id: string; status: number; durable: boolean }[] = [];
    const send = async (n: number) => {
      const status = await post(url, signedDelivery(n));
      // The moment the sender holds the answer: is the event durable now?
      logs.ack(`evt_${n}`);
      seen.push({ id: `evt_${n}`, status, durable: holds(`evt_${n}`, logs.durable(DEDUPE_FILE_NAME)) });
    };
    await Promise.all([1, 2, 3, 4, 5, 6].map(send));
    await send(7);
    expect(seen.filter((s) => s.status !== 200 || !s.durable)).toEqual([]);
    expect(seen).toHaveLength(7);
    expect(acknowledgedBeforeSync(logs.ops, holds)).toEqual([]);
    // A power cut now: the restarted listener knows every event it answered, and takes none again.
    logs.crash();
    const again = recordIn(logs);
    for (let n = 1; n <= 7; n++) expect(again.record.seen(`evt_${n}`, "other").kind).toBe("duplicate-event");
  });

  test("the order, in the receiver: the events of one turn appended together, one sync, printed, then answered", async () => {
    const logs = new MemoryLogs();
    const receiver = testReceiver(recordIn(logs));
    const answers = [1, 2, 3].map((n) =>
      receiver.receive(signedDelivery(n)).then((answer) => {
        logs.ack(`evt_${n}`);
        return answer.status;
      }),
    );
    expect(await Promise.all(answers)).toEqual([200, 200, 200]);
    const later = await receiver.receive(signedDelivery(4));
    logs.ack("evt_4");
    expect(later.status).toBe(200);
    expect(brief(logs.ops)).toEqual([
      "append evt_1,evt_2,evt_3",
      "sync",
      "append printed",
      "ack evt_1",
      "ack evt_2",
      "ack evt_3",
      "append evt_4",
      "sync",
      "append printed",
      "ack evt_4",
    ]);
  });

  test("off the event loop: deliveries read while a sync runs are appended together after it (before it is printed and answered), and each is answered only once a sync covers it", async () => {
    const logs = new MemoryLogs();
    // A slow disk: each sync settles when the test releases it (what it covers is fixed when it starts).
    const held: (() => void)[] = [];
    const slow = {
      read: (name: string) => logs.read(name),
      open: (name: string) => {
        const log = logs.open(name);
        return {
          ...log,
          syncAsync: () => {
            const done = log.syncAsync();
            return new Promise<void>((resolve) => held.push(() => void done.then(resolve)));
          },
        };
      },
    };
    const opened = openRecordStore(slow, "state/dedupe.jsonl");
    if (!opened.ok) throw new Error(opened.diagnostic.message);
    const receiver = testReceiver(opened.file);
    const answered = (n: number) =>
      receiver.receive(signedDelivery(n)).then((answer) => {
        logs.ack(`evt_${n}`);
        return answer.status;
      });
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    const first = answered(1);
    await turn();
    await turn();
    // The sync of evt_1 runs; the loop is free: two more deliveries are read and verified meanwhile.
    const more = [answered(2), answered(3)];
    await turn();
    expect(held).toHaveLength(1);
    expect(brief(logs.ops)).toEqual(["append evt_1", "sync"]);
    held[0]?.();
    expect(await first).toBe(200);
    await turn();
    held[1]?.();
    expect(await Promise.all(more)).toEqual([200, 200]);
    // Group commit, pipelined (issue 36): evt_2 and evt_3 are appended and their sync started as
    // soon as evt_1's sync ended, before evt_1 is printed, marked and answered.
    expect(brief(logs.ops)).toEqual([
      "append evt_1",
      "sync",
      "append evt_2,evt_3",
      "append printed",
      "ack evt_1",
      "sync",
      "append printed",
      "ack evt_2",
      "ack evt_3",
    ]);
    expect(acknowledgedBeforeSync(logs.ops, holds)).toEqual([]);
  });

  test("a torn last line is cut and synced before anything is appended", () => {
    const logs = new MemoryLogs();
    logs.put(
      DEDUPE_FILE_NAME,
      '{"event_id":"evt_1","body_key":"k","kind":"message.sent","at":"x"}\n{"event_id":"ev',
    );
    const file = recordIn(logs);
    expect(file.recovery.torn).toBeGreaterThan(0);
    expect(brief(logs.ops)).toEqual(["truncate", "sync"]);
    expect(logs.durable(DEDUPE_FILE_NAME).endsWith("\n")).toBe(true);
  });

  test("the check fails when the sync is lost: answered before the sync, and lost by a crash", async () => {
    const logs = new MemoryLogs();
    // The record as it would be with its sync removed: appends reach the log, syncs do not.
    const withoutSync = {
      read: (name: string) => logs.read(name),
      open: (name: string) => ({ ...logs.open(name), sync: () => {}, syncAsync: async () => {} }),
    };
    const opened = openRecordStore(withoutSync, "state/dedupe.jsonl");
    if (!opened.ok) throw new Error(opened.diagnostic.message);
    const receiver = testReceiver(opened.file);
    const answer = await receiver.receive(signedDelivery(1));
    logs.ack("evt_1");
    expect(answer.status).toBe(200);
    expect(acknowledgedBeforeSync(logs.ops, holds)).toEqual(["evt_1"]);
    expect(holds("evt_1", logs.durable(DEDUPE_FILE_NAME))).toBe(false);
  });
});
