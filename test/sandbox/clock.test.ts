import { describe, expect, test } from "vitest";
import { VirtualClock } from "../../src/sandbox/clock.js";

describe("VirtualClock", () => {
  test("with scale 0 it moves only when advanced, running due timers in order at their time", async () => {
    const clock = new VirtualClock({ startMs: 1000, timeScale: 0 });
    const seen: [string, number][] = [];
    clock.schedule(1500, (now) => {
      seen.push(["b", now]);
    });
    clock.schedule(1200, (now) => {
      seen.push(["a", now]);
      clock.schedule(1300, (t) => {
        seen.push(["a2", t]);
      });
    });
    clock.schedule(5000, (now) => {
      seen.push(["late", now]);
    });
    const ticks: number[] = [];
    clock.onTick((now) => {
      ticks.push(now);
    });
    await clock.advance(500);
    expect(seen).toEqual([
      ["a", 1200],
      ["a2", 1300],
      ["b", 1500],
    ]);
    expect(clock.nowMs()).toBe(1500);
    expect(ticks).toEqual([1500]);
  });

  test("cancelled timers do not run; set backwards runs nothing", async () => {
    const clock = new VirtualClock({ startMs: 0, timeScale: 0 });
    let ran = false;
    clock
      .schedule(10, () => {
        ran = true;
      })
      .cancel();
    await clock.advance(100);
    await clock.set(new Date(50));
    expect(ran).toBe(false);
    expect(clock.nowMs()).toBe(50);
  });

  test("with a positive scale it follows the (injected) real clock", () => {
    let real = 0;
    const clock = new VirtualClock({ startMs: 10_000, timeScale: 60, realNow: () => real });
    real = 1000;
    expect(clock.nowMs()).toBe(70_000);
    clock.stop();
  });

  test("advance rejects a negative duration", () => {
    const clock = new VirtualClock({ startMs: 0, timeScale: 0 });
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });
});
