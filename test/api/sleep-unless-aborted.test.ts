/**
 * The backoff wait of the one write executor (`sleepUnlessAborted`, src/api/write-retry.ts): however
 * many actions wait at once on the run's signal, the signal holds one abort listener, and none once
 * the waits end (a listener per wait: Node's MaxListenersExceededWarning in the 20-key apply).
 */
import { getEventListeners } from "node:events";
import { expect, test } from "vitest";
import { sleepUnlessAborted } from "../../src/api/write-retry.js";

/** A sleep that ends when the test says so. */
function manualSleep(): { readonly sleep: (ms: number) => Promise<void>; readonly wakeAll: () => void } {
  const pending: (() => void)[] = [];
  return {
    sleep: () => new Promise<void>((resolve) => pending.push(resolve)),
    wakeAll: () => {
      for (const wake of pending.splice(0)) wake();
    },
  };
}

const listeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

test("80 waits at once hold one abort listener, and none once they end", async () => {
  const { sleep, wakeAll } = manualSleep();
  const signal = new AbortController().signal;
  const waits = Array.from({ length: 80 }, () => sleepUnlessAborted(sleep, 1000, signal));
  expect(listeners(signal)).toBe(1);
  wakeAll();
  await Promise.all(waits);
  expect(listeners(signal)).toBe(0);
  // A later round of waits starts clean.
  const again = [sleepUnlessAborted(sleep, 1000, signal), sleepUnlessAborted(sleep, 1000, signal)];
  expect(listeners(signal)).toBe(1);
  wakeAll();
  await Promise.all(again);
  expect(listeners(signal)).toBe(0);
});

test("an abort ends every wait at once, before its sleep does", async () => {
  const { sleep, wakeAll } = manualSleep();
  const controller = new AbortController();
  let ended = 0;
  const waits = Array.from({ length: 20 }, () =>
    sleepUnlessAborted(sleep, 1000, controller.signal).then(() => {
      ended++;
    }),
  );
  await Promise.resolve();
  expect(ended).toBe(0);
  controller.abort();
  await Promise.all(waits);
  expect(ended).toBe(20);
  expect(listeners(controller.signal)).toBe(0);
  // The sleeps ending later change nothing; a wait on an aborted signal ends at once.
  wakeAll();
  await sleepUnlessAborted(sleep, 1000, controller.signal);
});
