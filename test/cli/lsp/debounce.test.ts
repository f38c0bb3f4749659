/**
 * The per-document debouncer (cli/lsp/debounce.ts), driven by a hand-run timer: each call restarts
 * its key's delay, keys are independent, and cancelled runs never happen.
 */
import { describe, expect, test } from "vitest";
import { debouncer, type Schedule } from "../../../cli/lsp/debounce.js";

function manualTimer() {
  let now = 0;
  let timers: { at: number; run: () => void; live: boolean }[] = [];
  const schedule: Schedule = (run, ms) => {
    const timer = { at: now + ms, run, live: true };
    timers.push(timer);
    return () => {
      timer.live = false;
    };
  };
  const advance = (ms: number): void => {
    now += ms;
    const due = timers.filter((t) => t.live && t.at <= now);
    timers = timers.filter((t) => !due.includes(t));
    for (const t of due) t.run();
  };
  return { schedule, advance, pending: () => timers.filter((t) => t.live).length };
}

describe("debouncer", () => {
  test("runs once a key has been quiet for the delay, restarting on each call", () => {
    const timer = manualTimer();
    const d = debouncer(200, timer.schedule);
    const runs: string[] = [];
    d.call("a", () => runs.push("a1"));
    timer.advance(150);
    d.call("a", () => runs.push("a2"));
    timer.advance(150);
    expect(runs).toEqual([]);
    timer.advance(50);
    expect(runs).toEqual(["a2"]);
    expect(timer.pending()).toBe(0);
  });

  test("keys are independent; cancel and cancelAll drop pending runs", () => {
    const timer = manualTimer();
    const d = debouncer(100, timer.schedule);
    const runs: string[] = [];
    d.call("a", () => runs.push("a"));
    d.call("b", () => runs.push("b"));
    d.call("c", () => runs.push("c"));
    d.cancel("a");
    timer.advance(100);
    expect(runs).toEqual(["b", "c"]);
    d.call("a", () => runs.push("a"));
    d.call("b", () => runs.push("b"));
    d.cancelAll();
    timer.advance(1000);
    expect(runs).toEqual(["b", "c"]);
  });
});
