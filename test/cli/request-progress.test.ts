import { describe, expect, it } from "vitest";
import type { Io } from "../../cli/output/io.js";
import { createRequestProgress, requestProgressLine } from "../../cli/progress/request-progress.js";
import type { ApiEvent } from "../../src/api/index.js";
import { TEST_NOW } from "../helpers/clock.js";
import { captureIo } from "../helpers/run-cli.js";

function capture(tty: boolean): { io: Io; err: () => string } {
  const io = captureIo({ env: {}, cwd: "/", tty });
  return { io, err: io.err };
}

const base = { callId: 1, method: "GET" as const, route: "GET /projects/{id}", path: "/projects/p", atMs: 0 };
const start: ApiEvent = { ...base, type: "request-start", attempt: 1 };
const wait = (ms: number): ApiEvent => ({ ...base, type: "wait", reason: "rate-limit", ms });

describe("plan request progress", () => {
  it.each([
    [{ requests: 1, waitedMs: 0 }, "plan: 1 API request"],
    [{ requests: 250, waitedMs: 0 }, "plan: 250 API requests"],
    [{ requests: 250, waitedMs: 61_000 }, "plan: 250 API requests, 1m 1s waiting for the rate limit"],
  ])("%o reads %j", (progress, line) => {
    expect(requestProgressLine(progress, "plan")).toBe(line);
  });

  it("without a terminal, says nothing for short plans and one line per long rate-limit wait", () => {
    const { io, err } = capture(false);
    let now = TEST_NOW.getTime();
    const progress = createRequestProgress(io, "plan", () => now);
    for (let i = 0; i < 100; i++) progress.onEvent(start);
    now += 2_000;
    progress.onEvent(wait(2_000));
    expect(err()).toBe("");
    now += 40_000;
    progress.onEvent(wait(30_000));
    progress.finish();
    expect(err()).toBe("+42s plan: 100 API requests, 32s waiting for the rate limit\n");
  });

  it("on a terminal, redraws one line in place and clears it when done", () => {
    const { io, err } = capture(true);
    const progress = createRequestProgress(io, "plan", io.clock);
    progress.onEvent(start);
    progress.onEvent(start);
    progress.finish();
    expect(err()).toBe("\r\x1b[2Kplan: 1 API request\r\x1b[2Kplan: 2 API requests\r\x1b[2K");
  });
});
