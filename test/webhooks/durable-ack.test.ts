/**
 * Durable before acknowledged (issue 23, item 4), at the receiver: a delivery is answered only once
 * its event is flushed to the record; the deliveries that arrive during one flush share the next
 * (group commit); a retry of an event still on its way to disk waits for that flush; a flush that
 * fails answers 503 and forgets the event, so the sender's retry is taken on; a full queue answers
 * 503. The store is a stand-in whose flushes the test releases, so no timing is involved.
 */
import { describe, expect, test } from "vitest";
import { DedupeRecord } from "../../src/webhooks/dedupe.js";
import type { Answer, ListenerNote, ReceiverStore } from "../../src/webhooks/receiver.js";
import type { Marker, RecordedEvent } from "../../src/webhooks/record.js";
import { signedDelivery as delivery, testReceiver } from "./harness.js";

/** A store whose flushes wait until the test settles them, in order. */
function gatedStore() {
  const flushes: { events: readonly RecordedEvent[]; settle: (error?: Error) => void }[] = [];
  const markers: Marker[] = [];
  const store: ReceiverStore = {
    record: new DedupeRecord(100),
    commit: (events) =>
      new Promise<void>((resolve, reject) => {
        flushes.push({ events, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      }),
    mark: (m) => {
      markers.push(...m);
    },
    compactionDue: () => false,
    compact: () => {},
  };
  return { store, flushes, markers };
}

/** A receiver on `store` with its notes (a queue of 100 unless `options` says otherwise). */
function receiverOn(store: ReceiverStore, options: Parameters<typeof testReceiver>[2] = {}) {
  const notes: ListenerNote[] = [];
  const receiver = testReceiver(store, (n) => notes.push(n), { queueLimit: 100, ...options });
  return { receiver, notes };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Tracks whether a promise has resolved yet. */
function tracked(promise: Promise<Answer>) {
  const state: { answer: Answer | null } = { answer: null };
  void promise.then((a) => {
    state.answer = a;
  });
  return state;
}

describe("the receiver answers only what is on disk", () => {
  test("no answer before the flush; the deliveries of one flush go to disk together in the next; printed, marked printed, then answered", async () => {
    const { store, flushes, markers } = gatedStore();
    const { receiver, notes } = receiverOn(store);
    const first = tracked(receiver.receive(delivery(1)));
    await settle();
    // Two more arrive while the first flush runs.
    const second = tracked(receiver.receive(delivery(2)));
    const third = tracked(receiver.receive(delivery(3)));
    await settle();
    expect(flushes.map((f) => f.events.map((e) => e.entry.event_id))).toEqual([["evt_1"]]);
    expect([first.answer, second.answer, third.answer]).toEqual([null, null, null]);
    expect(notes).toEqual([]);
    flushes[0]?.settle();
    await settle();
    expect(first.answer?.status).toBe(200);
    expect(second.answer).toBeNull();
    // One flush for both waiting events.
    expect(flushes.map((f) => f.events.map((e) => e.entry.event_id))).toEqual([
      ["evt_1"],
      ["evt_2", "evt_3"],
    ]);
    flushes[1]?.settle();
    await settle();
    expect([second.answer?.status, third.answer?.status]).toEqual([200, 200]);
    expect(notes.map((n) => (n.type === "accepted" ? n.event.eventId : n.type))).toEqual([
      "evt_1",
      "evt_2",
      "evt_3",
    ]);
    expect(markers).toEqual([
      { t: "printed", event_id: "evt_1" },
      { t: "printed", event_id: "evt_3" },
    ]);
    // The record keeps the exact bytes and the headers, for the outbox and for a restart.
    const kept = flushes[1]?.events[0];
    expect(Buffer.from(kept?.bodyBase64 ?? "", "base64").equals(delivery(2).body)).toBe(true);
    expect(kept?.headers["x-event-id"]).toBe("evt_2");
  });

  test("a retry of an event still on its way to disk waits for that flush, then is answered as a duplicate", async () => {
    const { store, flushes } = gatedStore();
    const { receiver } = receiverOn(store);
    const first = tracked(receiver.receive(delivery(1)));
    await settle();
    const retry = tracked(receiver.receive(delivery(1)));
    await settle();
    expect(retry.answer).toBeNull();
    flushes[0]?.settle();
    await settle();
    expect(first.answer?.status).toBe(200);
    expect(retry.answer).toEqual({ status: 200, body: JSON.stringify({ received: true, duplicate: true }) });
    expect(flushes).toHaveLength(1);
  });

  test("a flush that fails: 503 webhooks.not-recorded for the event and its waiting retry, reported, and forgotten so the next retry is taken on", async () => {
    const { store, flushes } = gatedStore();
    const { receiver, notes } = receiverOn(store);
    const first = tracked(receiver.receive(delivery(1)));
    await settle();
    const retry = tracked(receiver.receive(delivery(1)));
    await settle();
    flushes[0]?.settle(new Error("ENOSPC: no space left on device"));
    await settle();
    expect(first.answer?.status).toBe(503);
    expect(JSON.parse(first.answer?.body ?? "{}")).toEqual({
      received: false,
      code: "webhooks.not-recorded",
    });
    expect(retry.answer?.status).toBe(503);
    const problem = notes.find((n) => n.type === "problem");
    expect(problem).toMatchObject({ diagnostic: { code: "webhooks.not-recorded" } });
    expect(notes.some((n) => n.type === "accepted")).toBe(false);
    expect(store.record.seen("evt_1", "x").kind).toBe("new");
    const later = tracked(receiver.receive(delivery(1)));
    await settle();
    flushes[1]?.settle();
    await settle();
    expect(later.answer?.status).toBe(200);
  });

  test("a full queue answers 503 webhooks.queue-full and does not remember the event", async () => {
    const { store, flushes } = gatedStore();
    const { receiver } = receiverOn(store, { queueLimit: 1 });
    const first = tracked(receiver.receive(delivery(1)));
    await settle();
    const second = tracked(receiver.receive(delivery(2)));
    const third = tracked(receiver.receive(delivery(3)));
    await settle();
    expect(third.answer?.status).toBe(503);
    expect(JSON.parse(third.answer?.body ?? "{}")).toMatchObject({ code: "webhooks.queue-full" });
    expect(store.record.seen("evt_3", "x").kind).toBe("new");
    flushes[0]?.settle();
    await settle();
    flushes[1]?.settle();
    await settle();
    expect([first.answer?.status, second.answer?.status]).toEqual([200, 200]);
  });
});

describe("printed means handed to the OS", () => {
  test("a batch's printed marker and its answers wait until its print was handed on (one wait per batch)", async () => {
    const { store, flushes, markers } = gatedStore();
    let handOn: () => void = () => {};
    let waits = 0;
    const { receiver, notes } = receiverOn(store, {
      printed: () => {
        waits += 1;
        return new Promise<void>((resolve) => {
          handOn = resolve;
        });
      },
    });
    const first = tracked(receiver.receive(delivery(1)));
    await settle();
    flushes[0]?.settle();
    await settle();
    // Printed (queued), not yet handed on: no marker, no answer.
    expect(notes.map((n) => n.type)).toEqual(["accepted"]);
    expect(markers).toEqual([]);
    expect(first.answer).toBeNull();
    handOn();
    await settle();
    expect(markers).toEqual([{ t: "printed", event_id: "evt_1" }]);
    expect(first.answer?.status).toBe(200);
    expect(waits).toBe(1);
  });

  test("printAfter holds every batch's print until the start's recovered lines are marked", async () => {
    const { store, flushes, markers } = gatedStore();
    const { receiver, notes } = receiverOn(store);
    let marked: () => void = () => {};
    receiver.printAfter(
      new Promise<void>((resolve) => {
        marked = resolve;
      }),
    );
    const first = tracked(receiver.receive(delivery(1)));
    await settle();
    flushes[0]?.settle();
    await settle();
    expect(notes).toEqual([]);
    expect(first.answer).toBeNull();
    marked();
    await settle();
    expect(notes.map((n) => n.type)).toEqual(["accepted"]);
    expect(markers).toEqual([{ t: "printed", event_id: "evt_1" }]);
    expect(first.answer?.status).toBe(200);
  });
});
