/**
 * The listener's work queue as a group-commit pipeline (src/webhooks/queue.ts, issue 36): batches
 * are written one at a time, in order; a batch is published (printed, marked, answered) only after
 * its write, in batch order, and after the next batch's write has started, so the flush of one
 * batch runs while the one before it is printed and answered; the record's compaction runs between
 * two writes once every written batch was published, and is told which jobs are not yet written.
 * Every write and publish is released by the test: no timing is involved.
 */
import { describe, expect, test } from "vitest";
import { WorkQueue } from "../../src/webhooks/queue.js";

/** A promise and its resolver. */
function gate<T = void>() {
  let open: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function pipeline(options: { limit?: number; batchLimit?: number; due?: () => boolean } = {}) {
  const log: string[] = [];
  const writes: { batch: number[]; done: (ok: boolean) => void }[] = [];
  const publishes: { batch: number[]; done: () => void }[] = [];
  const errors: unknown[] = [];
  const queue = new WorkQueue<number>(
    {
      write: (batch) => {
        log.push(`write ${batch.join(",")}`);
        const g = gate<boolean>();
        writes.push({ batch: [...batch], done: g.open });
        if (batch.includes(99)) throw new Error("write of 99 broke");
        return g.promise;
      },
      publish: (batch) => {
        log.push(`publish ${batch.join(",")}`);
        const g = gate();
        publishes.push({ batch: [...batch], done: g.open });
        return g.promise;
      },
      maintenanceDue: options.due ?? (() => false),
      maintain: (waiting) => log.push(`maintain, waiting ${waiting.join(",")}`),
    },
    options.limit ?? 100,
    (e) => errors.push(e),
    options.batchLimit ?? 256,
  );
  return { queue, log, writes, publishes, errors };
}

describe("the group-commit queue", () => {
  test("the next batch's write starts before the batch just written is published; publishes run in order, one at a time", async () => {
    const { queue, log, writes, publishes } = pipeline();
    queue.push(1);
    queue.push(2);
    queue.push(3);
    expect(log).toEqual(["write 1"]);
    writes[0]?.done(true);
    await settle();
    // 2 and 3 arrived while 1 was written: written together, before 1 is published.
    expect(log).toEqual(["write 1", "write 2,3", "publish 1"]);
    queue.push(4);
    writes[1]?.done(true);
    await settle();
    // 2,3 is written, 4 is being written, but 1's publish has not finished: 2,3 waits for it.
    expect(log).toEqual(["write 1", "write 2,3", "publish 1", "write 4"]);
    expect(queue.pending).toBe(4);
    publishes[0]?.done();
    await settle();
    expect(log.at(-1)).toBe("publish 2,3");
    writes[2]?.done(true);
    publishes[1]?.done();
    await settle();
    expect(log.at(-1)).toBe("publish 4");
    let drained = false;
    void queue.drained().then(() => {
      drained = true;
    });
    await settle();
    expect(drained).toBe(false);
    publishes[2]?.done();
    await settle();
    expect(drained).toBe(true);
    expect(queue.pending).toBe(0);
  });

  test("a failed write is not published; a write that throws is reported; the queue goes on", async () => {
    const { queue, log, writes, publishes, errors } = pipeline();
    queue.push(1);
    writes[0]?.done(false);
    await settle();
    queue.push(99);
    await settle();
    queue.push(2);
    writes[2]?.done(true);
    await settle();
    publishes[0]?.done();
    await queue.drained();
    expect(log).toEqual(["write 1", "write 99", "write 2", "publish 2"]);
    expect(errors.map(String)).toEqual(["Error: write of 99 broke"]);
  });

  test("refuses beyond its limit (the batch being written not counted); batches hold at most batchLimit jobs", async () => {
    const { queue, log, writes, publishes } = pipeline({ limit: 3, batchLimit: 2 });
    expect([1, 2, 3, 4, 5].map((n) => queue.push(n))).toEqual([true, true, true, true, false]);
    expect(queue.pending).toBe(4);
    for (let i = 0; i < 3; i++) {
      writes[i]?.done(true);
      await settle();
      publishes[i]?.done();
      await settle();
    }
    await queue.drained();
    expect(log.filter((l) => l.startsWith("write"))).toEqual(["write 1", "write 2,3", "write 4"]);
  });

  test("maintenance runs between two writes, after every written batch was published, and is told the jobs still waiting", async () => {
    let due = false;
    const { queue, log, writes, publishes } = pipeline({ due: () => due });
    queue.push(1);
    queue.push(2);
    writes[0]?.done(true);
    await settle();
    expect(log).toEqual(["write 1", "write 2", "publish 1"]);
    due = true;
    queue.push(3);
    queue.push(4);
    writes[1]?.done(true);
    await settle();
    // Due: 3,4 are not written until 1 and 2 are published and the maintenance ran.
    expect(log).toEqual(["write 1", "write 2", "publish 1"]);
    publishes[0]?.done();
    await settle();
    expect(log.at(-1)).toBe("publish 2");
    due = false;
    publishes[1]?.done();
    await settle();
    expect(log.slice(3)).toEqual(["publish 2", "maintain, waiting 3,4", "write 3,4"]);
    writes[2]?.done(true);
    await settle();
    publishes[2]?.done();
    await queue.drained();
  });
});
