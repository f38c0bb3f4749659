/** The API's clock as the client reads it from `Date` headers, and the plan's skew warning. Pure. */
import { describe, expect, it } from "vitest";
import { ServerClock } from "../../src/api/server-clock.js";
import { CLOCK_SKEW_TOLERANCE_MS, clockSkewDiagnostic } from "../../src/plan/clock-skew.js";

const T = Date.parse("2031-03-10T16:00:00Z");
const HEADER = new Date(T).toUTCString();

describe("ServerClock", () => {
  const cases: { name: string; receivedAt: number; readAt: number; expected: number }[] = [
    {
      name: "same second: the local clock, to the ms",
      receivedAt: T + 420,
      readAt: T + 5_420,
      expected: T + 5_420,
    },
    { name: "at the second's start", receivedAt: T, readAt: T, expected: T },
    {
      name: "server 2 h ahead",
      receivedAt: T - 7_200_000,
      readAt: T - 7_200_000 + 30_000,
      expected: T + 30_000,
    },
    {
      name: "server 2 h behind",
      receivedAt: T + 7_200_000,
      readAt: T + 7_260_000,
      expected: T + 999 + 60_000,
    },
  ];
  it.each(cases)("$name", ({ receivedAt, readAt, expected }) => {
    let local = receivedAt;
    const clock = new ServerClock({ now: () => local });
    clock.observe(HEADER, receivedAt);
    local = readAt;
    expect(clock.now()?.getTime()).toBe(expected);
  });

  it("knows nothing before a valid Date header, and ignores unreadable ones", () => {
    const clock = new ServerClock({ now: () => T });
    expect(clock.now()).toBeNull();
    clock.observe(null, T);
    clock.observe("yesterday-ish", T);
    expect(clock.now()).toBeNull();
  });

  it("never goes back: a server a quarter second behind, seen through a later header", () => {
    let local = T - 500;
    const clock = new ServerClock({ now: () => local });
    clock.observe(new Date(T - 1000).toUTCString(), local); // inside the second named: offset 0
    local = T + 1_240;
    const started = clock.now()?.getTime() ?? 0;
    expect(started).toBe(T + 1_240);
    // The next response still names second T at local T + 1250: the offset moves back 251 ms.
    local = T + 1_250;
    clock.observe(new Date(T).toUTCString(), local);
    const finished = clock.now()?.getTime() ?? 0;
    expect(finished).toBeGreaterThanOrEqual(started);
    local = T + 1_600;
    expect(clock.now()?.getTime()).toBe(T + 1_349);
  });

  it("follows the last header", () => {
    const clock = new ServerClock({ now: () => T });
    clock.observe(new Date(T + 3_600_000).toUTCString(), T);
    clock.observe(HEADER, T);
    expect(clock.now()?.getTime()).toBe(T);
  });
});

describe("plan.clock-skew", () => {
  it.each([
    [0, false],
    [CLOCK_SKEW_TOLERANCE_MS, false],
    [-CLOCK_SKEW_TOLERANCE_MS, false],
    [CLOCK_SKEW_TOLERANCE_MS + 1000, true],
    [-(CLOCK_SKEW_TOLERANCE_MS + 1000), true],
  ])("API clock off by %i ms: warned %s", (skewMs, warned) => {
    const d = clockSkewDiagnostic(new Date(T + skewMs), new Date(T));
    expect(d?.code).toBe(warned ? "plan.clock-skew" : undefined);
    if (warned) expect(d?.severity).toBe("warning");
  });

  it("names both times and the direction", () => {
    const ahead = clockSkewDiagnostic(new Date(T + 7_200_000), new Date(T));
    expect(ahead?.message).toBe(
      "the API's clock (2031-03-10T18:00:00Z) is 2h ahead of this machine's (2031-03-10T16:00:00Z); the plan judges schedules by the API's clock",
    );
    const behind = clockSkewDiagnostic(new Date(T - 185_000), new Date(T));
    expect(behind?.message).toContain("is 3m 5s behind this machine's");
  });

  it.each([
    [7_199_400, "2h"],
    [7_170_000, "2h"],
    [7_140_000, "1h 59m"],
    [90_061_000, "1d 1h"],
    [61_400, "1m 1s"],
  ])("a skew of %i ms reads %s (rounded to the smaller unit shown)", (skewMs, text) => {
    expect(clockSkewDiagnostic(new Date(T + skewMs), new Date(T))?.message).toContain(` is ${text} ahead`);
  });
});
