/**
 * A sandbox started away from its fixture's `clock.start` moves every timestamp of the fixture's
 * world by the same offset (one place: `fixtureToWorld`'s timestamp reader), and nothing else.
 */
import { describe, expect, it } from "vitest";
import { planClockStart } from "../../src/sandbox/fixture/clock-start.js";
import { fixtureToWorld } from "../../src/sandbox/fixture/to-world.js";
import { exampleFixture } from "../sandbox/helpers.js";

const FIXTURE_START = Date.parse("2026-12-01T15:00:00Z");
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Every leaf of `a` beside the same leaf of `b`, with its path. */
function* leaves(a: unknown, b: unknown, path = ""): Generator<[string, unknown, unknown]> {
  if (a !== null && typeof a === "object") {
    expect(Object.keys(b as object).sort(), path).toEqual(Object.keys(a).sort());
    for (const [k, v] of Object.entries(a))
      yield* leaves(v, (b as Record<string, unknown>)[k], `${path}.${k}`);
  } else yield [path, a, b];
}

describe("planClockStart", () => {
  const fixture = exampleFixture();
  const realNow = Date.parse("2031-03-10T16:00:00Z");
  it.each([
    ["fixture", "fixture" as const, FIXTURE_START, 0],
    [
      "a given time",
      new Date("2027-01-01T00:00:00Z"),
      Date.parse("2027-01-01T00:00:00Z"),
      Date.parse("2027-01-01T00:00:00Z") - FIXTURE_START,
    ],
    ["the real now", new Date(realNow), realNow, realNow - FIXTURE_START],
  ])("start at %s", (_name, start, startMs, shiftMs) => {
    expect(planClockStart(fixture, start, realNow)).toEqual({ startMs, shiftMs });
  });

  it("a fixture without clock.start starts at real now and shifts nothing", () => {
    const { clock: _clock, ...unanchored } = exampleFixture();
    expect(planClockStart(unanchored, "fixture", realNow)).toEqual({ startMs: realNow, shiftMs: 0 });
    expect(planClockStart(unanchored, new Date(realNow + 5), realNow)).toEqual({
      startMs: realNow + 5,
      shiftMs: 0,
    });
  });

  it("an invalid start is refused", () => {
    expect(planClockStart(fixture, new Date(Number.NaN), realNow)).toBeNull();
  });
});

describe("fixtureToWorld with a shift", () => {
  it("moves every timestamp of the example world by the shift, and leaves every other value alone", () => {
    const fixture = exampleFixture();
    const shift = Date.parse("2031-03-10T16:00:00.123Z") - FIXTURE_START;
    const base = fixtureToWorld(fixture, FIXTURE_START, 0);
    const moved = fixtureToWorld(fixture, FIXTURE_START + shift, shift);
    const timestamps = new Set<string>();
    let others = 0;
    for (const [path, a, b] of leaves(base, moved)) {
      if (typeof a === "string" && ISO.test(a)) {
        expect(Date.parse(b as string) - Date.parse(a), path).toBe(shift);
        timestamps.add(path.replace(/^\.(\w+)\.[^.]+/, ".$1.*").replace(/\.\d+\./g, ".*."));
      } else {
        expect(b, path).toEqual(a);
        others++;
      }
    }
    // The example world has timestamps of many kinds; each moved.
    for (const kind of [
      ".organizations.*.created_at",
      ".projects.*.created_at",
      ".projects.*.updated_at",
      ".projects.*.scheduled_at",
      ".tollFreeVerifications.*.submitted_at",
      ".tollFreeVerifications.*.verified_at",
      ".media.*.optimized_at",
    ])
      expect(timestamps, kind).toContain(kind);
    expect(others).toBeGreaterThan(100);
  });
});
