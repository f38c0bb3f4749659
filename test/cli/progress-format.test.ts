import { describe, expect, it } from "vitest";
import type { Io } from "../../cli/output/io.js";
import { createProgress } from "../../cli/progress/progress.js";
import { elapsedPrefix, stopwatch } from "../../cli/progress/progress-clock.js";
import {
  foldProgress,
  formatEventLine,
  INITIAL_PROGRESS,
  type LiveView,
  renderLive,
} from "../../cli/progress/progress-format.js";
import {
  type ActionResultStatus,
  type ApplyEvent,
  countOutcomes,
  NO_OUTCOMES,
  outcomeCountKey,
} from "../../src/apply/index.js";
import { APPLY_STATUS_WORD } from "../../src/report/apply-describe.js";
import { TEST_NOW } from "../helpers/clock.js";
import { captureIo } from "../helpers/run-cli.js";

const AT = "2036-03-01T15:00:00.000Z";

/** A terminal wide enough for every line, with no rate budget known (no estimate). */
const WIDE: LiveView = { columns: 200, perMinute: 0 };

const runStart = (actions: number): ApplyEvent => ({
  type: "run-start",
  at: AT,
  actions,
  sendable: actions,
  parallelism: 4,
  wait_for_approval_ms: null,
});

const actionEnd = (id: string, status: ActionResultStatus): ApplyEvent => ({
  type: "action-end",
  at: "2036-03-01T15:00:01.000Z",
  id,
  status,
  reason: "r",
  resolution: null,
  error: null,
  attempts: 1,
});

/** The counts line with one action ended with each outcome. A Record: every outcome has a row. */
const ONE_OF: Readonly<Record<ActionResultStatus, string>> = {
  done: "1 done, 0 replayed, 0 failed, 0 skipped, 0 blocked, 0 deferred, 0 not started, 0 unknown",
  replayed: "0 done, 1 replayed, 0 failed, 0 skipped, 0 blocked, 0 deferred, 0 not started, 0 unknown",
  failed: "0 done, 0 replayed, 1 failed, 0 skipped, 0 blocked, 0 deferred, 0 not started, 0 unknown",
  skipped: "0 done, 0 replayed, 0 failed, 1 skipped, 0 blocked, 0 deferred, 0 not started, 0 unknown",
  blocked: "0 done, 0 replayed, 0 failed, 0 skipped, 1 blocked, 0 deferred, 0 not started, 0 unknown",
  deferred: "0 done, 0 replayed, 0 failed, 0 skipped, 0 blocked, 1 deferred, 0 not started, 0 unknown",
  "not-started": "0 done, 0 replayed, 0 failed, 0 skipped, 0 blocked, 0 deferred, 1 not started, 0 unknown",
  unknown: "0 done, 0 replayed, 0 failed, 0 skipped, 0 blocked, 0 deferred, 0 not started, 1 unknown",
};
const OUTCOMES = Object.keys(ONE_OF) as ActionResultStatus[];

describe("apply progress counts every outcome", () => {
  it.each(OUTCOMES)("an action ended %s is counted in the live view and the run-end line", (status) => {
    const state = [runStart(1), actionEnd("a.test", status)].reduce(foldProgress, INITIAL_PROGRESS);
    const lines = renderLive(state, 2_000, WIDE);
    expect(lines[0]).toBe("Applying: 1/1 finished, 0 running, 0 waiting for approval, 0 retried");
    expect(lines[1]).toBe("  time: 2s elapsed, 0s rate-limit wait");
    // The live view counts the outcomes that happened; the run-end line counts every outcome.
    expect(lines[2]).toBe(`  finished: 1 ${APPLY_STATUS_WORD[status]}`);

    const summary = { ...NO_OUTCOMES, [outcomeCountKey(status)]: 1 };
    const end: ApplyEvent = { type: "run-end", at: "2036-03-01T15:00:03.000Z", interrupted: false, summary };
    expect(formatEventLine(end, 3_000)).toBe(`+3s apply finished: ${ONE_OF[status]}`);
  });

  it("the counts add up to the actions ended", () => {
    const counts = countOutcomes(OUTCOMES);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(OUTCOMES.length);
    expect(Object.values(counts).every((n) => n === 1)).toBe(true);
  });

  it("an action that ends again (unknown, then settled done by a re-read) counts once, by its last outcome", () => {
    const state = [runStart(2), actionEnd("a.test", "unknown"), actionEnd("a.test", "done")].reduce(
      foldProgress,
      INITIAL_PROGRESS,
    );
    expect(state.finished).toBe(1);
    expect(renderLive(state, 0, WIDE)[2]).toBe("  finished: 1 done");
  });

  it("without a terminal, prints one line per event; the run-end line counts unknown", () => {
    const io = captureIo({ env: {}, cwd: "/" });
    const clock = manualClock();
    const progress = createProgress(io, clock.read, false);
    progress.onEvent(runStart(1));
    clock.advance(1_500);
    progress.onEvent(actionEnd("a.test", "unknown"));
    clock.advance(1_500);
    progress.onEvent({
      type: "run-end",
      at: "2036-03-01T15:00:03.000Z",
      interrupted: false,
      summary: { ...NO_OUTCOMES, unknown: 1 },
    });
    progress.finish();
    expect(io.err()).toBe(
      "+0s apply: 1 of 1 actions to send, 4 at a time\n" +
        "+1.5s a.test: unknown\n" +
        `+3s apply finished: ${ONE_OF.unknown}\n`,
    );
  });

  it("on a terminal, the last frame drawn counts unknown", () => {
    const io = captureIo({ env: {}, cwd: "/", tty: true });
    const clock = manualClock();
    const progress = createProgress(io, clock.read, false, { columns: () => 200, ticker: () => () => {} });
    progress.onEvent(runStart(2));
    progress.onEvent(actionEnd("a.test", "unknown"));
    progress.onEvent(actionEnd("b.test", "done"));
    clock.advance(3_000);
    progress.finish();
    const frame = io.err().slice(io.err().lastIndexOf("\r\x1b[JApplying:"));
    expect(frame).toBe(
      "\r\x1b[JApplying: 2/2 finished, 0 running, 0 waiting for approval, 0 retried\n" +
        "  time: 3s elapsed, 0s rate-limit wait\n" +
        "  finished: 1 done, 1 unknown\n" +
        "  running: -\n" +
        "  last: b.test: done\n",
    );
  });
});

/** A machine clock at a fixed instant that moves only when told to (backwards too). */
function manualClock(): { read: () => number; advance: (ms: number) => void } {
  let now = TEST_NOW.getTime();
  return {
    read: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

function captureStderr(tty: boolean): { io: Io; err: () => string } {
  const io = captureIo({ env: {}, cwd: "/", tty });
  return { io, err: io.err };
}

describe("progress lines keep one clock", () => {
  it("the times are elapsed on the machine's clock, whatever the API's clock in the events says", () => {
    const { io, err } = captureStderr(false);
    // The events' `at` (the API's clock) jumps back an hour; the lines do not follow it.
    const clock = manualClock();
    const progress = createProgress(io, clock.read, false);
    progress.onEvent(runStart(1));
    clock.advance(2_000);
    progress.onEvent({ ...actionEnd("a.test", "done"), at: "2036-03-01T14:00:00.000Z" });
    clock.advance(2_000);
    progress.onEvent({
      type: "run-end",
      at: "2036-03-01T13:00:00.000Z",
      interrupted: false,
      summary: { ...NO_OUTCOMES, done: 1 },
    });
    expect(
      err()
        .split("\n")
        .map((l) => l.split(" ")[0]),
    ).toEqual(["+0s", "+2s", "+4s", ""]);
  });

  it.each([
    ["a clock that steps back holds its reading", [4_000, -2_000, 3_000], [4_000, 4_000, 5_000]],
    ["a steady clock counts from the start", [100, 100, 100], [100, 200, 300]],
  ])("%s", (_, steps, elapsed) => {
    const clock = manualClock();
    const watch = stopwatch(clock.read);
    const seen = steps.map((ms) => {
      clock.advance(ms);
      return watch.elapsedMs();
    });
    expect(seen).toEqual(elapsed);
  });

  it("restarting counts from the restart", () => {
    const clock = manualClock();
    const watch = stopwatch(clock.read);
    clock.advance(5_000);
    watch.restart();
    clock.advance(2_000);
    expect(watch.elapsedMs()).toBe(2_000);
  });

  it.each([
    [0, "+0s"],
    [1_500, "+1.5s"],
    [65_000, "+1m 5s"],
  ])("%i ms after the start is headed %s", (ms, prefix) => {
    expect(elapsedPrefix(ms)).toBe(prefix);
  });
});
