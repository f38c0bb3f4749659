/**
 * Issue 35 point 5: the apply live view on a terminal 80 and 40 columns wide, with 200 projects
 * (sixteen running at once, their addresses long). Every line of every frame fits one row
 * (`columns - 1` cells), the running list says how many it leaves out, each redraw moves up exactly
 * the rows the last frame took, and a terminal of that width (test/cli/terminal-screen.ts) shows
 * the last frame and nothing else: no wrapped rows left behind. The time left is estimated from
 * the rate budget on the injected clock; the redraws for the elapsed time come from an injected
 * ticker, never a real timer.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProgress, type Ticker } from "../../cli/progress/progress.js";
import { createRequestProgress } from "../../cli/progress/request-progress.js";
import type { ApiEvent } from "../../src/api/index.js";
import type { ApplyEvent } from "../../src/apply/index.js";
import { displayWidth } from "../../src/report/status-cells.js";
import { TEST_NOW } from "../helpers/clock.js";
import { captureIo, runCli } from "../helpers/run-cli.js";
import { terminalScreen } from "./terminal-screen.js";

const AT = "2036-03-01T15:00:00.000Z";
const IDS = Array.from(
  { length: 200 },
  (_, i) => `county-${String(i + 1).padStart(3, "0")}-gotv-reminder-es.schedule`,
);

const request: ApplyEvent = {
  type: "api",
  at: AT,
  event: {
    type: "request-start",
    callId: 1,
    method: "GET",
    route: "GET /projects/stats",
    path: "/projects/stats",
    atMs: 0,
    attempt: 1,
  },
};
const started = (id: string): ApplyEvent => ({
  type: "action-start",
  at: AT,
  id,
  kind: "schedule",
  project_id: "p",
  idempotency_key: "k",
});
const ended = (id: string): ApplyEvent => ({
  type: "action-end",
  at: AT,
  id,
  status: "done",
  reason: "r",
  resolution: null,
  error: null,
  attempts: 1,
});

/**
 * An apply of 200 actions on a terminal `columns` wide: the bytes written, and the ticks it asked
 * for. The same for the same width (the clock and the ticker are the test's), so each width is run
 * once and its result read by every test (five runs were two thirds of the file's CPU).
 */
const runs = new Map<number, { readonly bytes: string; readonly ticks: readonly number[] }>();
function run200(columns: number): { readonly bytes: string; readonly ticks: readonly number[] } {
  let run = runs.get(columns);
  if (run === undefined) {
    run = draw200(columns);
    runs.set(columns, run);
  }
  return run;
}

function draw200(columns: number): { bytes: string; ticks: number[] } {
  const io = captureIo({ env: {}, cwd: "/", tty: true });
  let now = TEST_NOW.getTime();
  const ticks: number[] = [];
  let tick: (() => void) | undefined;
  const ticker: Ticker = (fn, ms) => {
    ticks.push(ms);
    tick = fn;
    return () => {
      tick = undefined;
    };
  };
  const progress = createProgress(io, () => now, false, {
    columns: () => columns,
    perMinute: () => 100,
    ticker,
  });
  const step = (event: ApplyEvent) => {
    now += 150;
    progress.onEvent(event);
  };
  step({
    type: "run-start",
    at: AT,
    actions: 200,
    sendable: 200,
    parallelism: 16,
    wait_for_approval_ms: null,
  });
  for (const id of IDS.slice(0, 16)) step(started(id));
  step(request);
  // A tick with nothing new: only the elapsed time moves.
  now += 10_000;
  tick?.();
  // 50 actions done, 100 requests made: two a finished action, 150 actions left, 300 requests.
  for (let i = 0; i < 50; i++) {
    step(request);
    step(request);
    step(ended(IDS[i] as string));
    const next = IDS[i + 16];
    if (next !== undefined) step(started(next));
  }
  step({ type: "interrupt", at: AT, in_flight: 16 });
  progress.finish();
  return { bytes: io.err(), ticks };
}

const ESC = "\x1b";
/** Cursor up, as a redraw starts: `ESC [ n A`. */
const UP = new RegExp(`${ESC}\\[(\\d+)A`, "g");

/** The lines of each frame of a live view, in the order drawn. */
function frames(bytes: string): { lines: string[] }[] {
  return bytes
    .split(`\r${ESC}[J`)
    .slice(1)
    .map((body) => ({ lines: body.replace(UP, "").replace(/\n$/, "").split("\n") }));
}

describe("the apply live view fits the terminal", () => {
  it.each([80, 40])(
    "at %i columns: each line fits a row, each redraw moves up what was drawn, no garbage",
    (columns) => {
      const { bytes, ticks } = run200(columns);
      // A terminal that wide shows the last frame, six rows, and nothing of the frames before it.
      const screen = terminalScreen(columns, bytes).rows();
      expect(screen.map((row) => row.replace(/^( *[A-Za-z]+).*$/, "$1"))).toEqual([
        "Applying",
        "  INTERRUPTED",
        "  time",
        "  finished",
        "  running",
        "  last",
      ]);
      expect(ticks).toEqual([500]);
      const drawn = frames(bytes);
      expect(drawn.length).toBeGreaterThan(50);
      // The cursor moves up exactly the rows of the frame before.
      const ups = [...bytes.matchAll(UP)].map((m) => Number(m[1]));
      expect(ups).toEqual(drawn.slice(0, -1).map((f) => f.lines.length));
      for (const frame of drawn)
        for (const line of frame.lines) expect(displayWidth(line)).toBeLessThanOrEqual(columns - 1);
      // The screen shows the last frame, and nothing of the earlier ones.
      expect(terminalScreen(columns, bytes).rows()).toEqual(drawn.at(-1)?.lines);
    },
  );

  it("at 80 columns, the last frame", () => {
    const last = frames(run200(80).bytes).at(-1)?.lines;
    expect(last).toEqual([
      "Applying: 50/200 finished, 16 running, 0 waiting for approval, 0 retried",
      "  INTERRUPTED: requests in flight finish, nothing new starts",
      "  time: 43s elapsed, about 3m 2s left at 100 requests/min, 0s rate-limit wait",
      "  finished: 50 done",
      "  running: county-051-gotv-reminder-es.schedule … and 15 more",
      "  last: county-050-gotv-reminder-es.schedule: done",
    ]);
  });

  it("at 40 columns, the last frame", () => {
    const last = frames(run200(40).bytes).at(-1)?.lines;
    expect(last).toEqual([
      "Applying: 50/200 finished, 16 running,…",
      "  INTERRUPTED: requests in flight fini…",
      "  time: 43s elapsed, about 3m 2s left …",
      "  finished: 50 done",
      "  running: … and 16 more",
      "  last: county-050-gotv-reminder-es.sc…",
    ]);
  });

  it("before any action has finished, the estimate is a floor: one request an action", () => {
    const { bytes } = run200(80);
    const first = frames(bytes).find((f) => f.lines.some((l) => l.includes("left at")));
    expect(first?.lines[1]).toMatch(
      /^ {2}time: .* elapsed, at least 2m left at 100 requests\/min, 0s rate-limit wait$/,
    );
  });
});

describe("plan's request line fits the terminal", () => {
  const wait: ApiEvent = {
    type: "wait",
    reason: "rate-limit",
    ms: 61_000,
    callId: 1,
    method: "GET",
    route: "GET /projects/{id}",
    path: "/projects/p",
    atMs: 0,
  };
  it.each([
    [80, "plan: 0 API requests, 1m 1s waiting for the rate limit"],
    [40, "plan: 0 API requests, 1m 1s waiting fo…"],
  ])("at %i columns: %s", (columns, line) => {
    const io = captureIo({ env: {}, cwd: "/", tty: true });
    const progress = createRequestProgress(io, "plan", io.clock, () => columns);
    progress.onEvent(wait);
    progress.finish();
    expect(io.err()).toBe(`\r\x1b[2K${line}\r\x1b[2K`);
    expect(displayWidth(line)).toBeLessThanOrEqual(columns - 1);
  });
});

describe("apply --sandbox on a terminal", () => {
  it("draws the live view fitted to $COLUMNS, the estimate at the sandbox key's 100 requests a minute", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-progress-"));
    cpSync("examples", join(cwd, "campaigns"), { recursive: true });
    const run = await runCli(["apply", "--sandbox", "--auto-approve", "campaigns/"], {
      cwd,
      tty: true,
      env: { COLUMNS: "60" },
    });
    expect(run.code, run.stderr).toBe(0);
    const drawn = frames(run.stderr);
    expect(drawn.length).toBeGreaterThan(0);
    for (const frame of drawn)
      for (const line of frame.lines) expect(displayWidth(line)).toBeLessThanOrEqual(59);
    expect(run.stderr).toMatch(/left at 100 requests\/min/);
    expect(terminalScreen(60, run.stderr.slice(run.stderr.indexOf(`\r${ESC}[J`))).rows()).toEqual(
      drawn.at(-1)?.lines,
    );
  }, 60_000);
});
