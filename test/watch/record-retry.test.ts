/**
 * `watch --record` records every hour of the API's clock. A recording that fails (here the results
 * store's lock is held by another recording, as the hourly pipeline's may be) is tried again on a
 * later poll of the same hour (at most once a minute), never left for the next hour: before, the
 * hour was counted as recorded when its recording was only attempted, so one failure lost the hour.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESULTS_LOCK_FILE } from "../../cli/adapters/results-files.js";
import { afterRecording, NO_RECORDING, RECORD_RETRY_MS, recordDue } from "../../src/results/record-hours.js";
import { type RecordSummary, recordedWhole } from "../../src/results/record-summary.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { storeLines } from "../results/harness.js";
import { type Line, runWatch, type WatchRun } from "./harness.js";
import { campaignFile, GUARD, START, watchWorld, workDir } from "./world.js";

let sb: SandboxHandle;
let cwd: string;
let run: WatchRun;
const recordedAt: string[] = [];

beforeAll(async () => {
  const world = watchWorld(2);
  sb = await startSandbox({ fixture: world.fixture, timeScale: 0, rateLimits: true });
  const [a, b] = world.senders as [string, string];
  cwd = workDir({ "campaign.yaml": campaignFile({ alpha: a, bravo: b }, GUARD) });
  // Another recording (a running process that is not this one) holds the store's lock.
  const lock = join(cwd, "results", RESULTS_LOCK_FILE);
  mkdirSync(join(cwd, "results"), { recursive: true });
  writeFileSync(lock, `${process.ppid}\n`);
  let interrupt: () => void = () => {};
  run = await runWatch(sb, cwd, [], {
    flags: { json: true, record: true, interval: 30_000 },
    deps: {
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => {};
      },
    },
    beforeWait: (n) => {
      // The other recording ends after the first poll; three more polls, all in the same hour.
      if (n === 1) rmSync(lock);
      if (n === 4) interrupt();
    },
  });
  for (const l of run.lines)
    if (l.type === "diagnostic" && l.diagnostic.code === "results.recorded") recordedAt.push(l.at);
}, 60_000);

afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

describe("watch --record, the store locked on the first poll", () => {
  test("the first poll's recording fails, loudly", () => {
    const codes = run.lines.filter((l: Line) => l.type === "diagnostic").map((l: Line) => l.diagnostic.code);
    expect(codes).toContain("results.store-locked");
    expect(run.lines.filter((l: Line) => l.type === "poll")).toHaveLength(4);
    // Every poll of the run is in the hour the run started in.
    expect(run.lines.every((l: Line) => l.at.slice(0, 13) === START.toISOString().slice(0, 13))).toBe(true);
  });

  test("a later poll of the same hour records it, once", () => {
    expect(storeLines(join(cwd, "results")).length).toBeGreaterThan(0);
    // The failed try and the one that wrote, a minute later (not the poll 30 s after); none after it.
    expect(recordedAt).toHaveLength(2);
    expect(Date.parse(recordedAt[1] as string) - Date.parse(recordedAt[0] as string)).toBeGreaterThanOrEqual(
      RECORD_RETRY_MS,
    );
    expect(Date.parse(recordedAt[1] as string) - Date.parse(recordedAt[0] as string)).toBeLessThan(
      2 * RECORD_RETRY_MS,
    );
    const notes = run.lines.filter(
      (l: Line) => l.type === "diagnostic" && l.diagnostic.code === "results.recorded",
    );
    expect(notes[0].diagnostic.message).toContain("Nothing was recorded");
    expect(notes[0].diagnostic.hint).toContain("again on a poll a minute from now");
    expect(notes[1].diagnostic.message).toMatch(/^Recorded \d+ snapshots/);
  });
});

describe("recordedWhole", () => {
  const summary: RecordSummary = {
    at: "2026-12-01T15:10:00.000Z",
    hour: "2026-12-01T15:00:00Z",
    store: "results",
    windows: [],
    keys: [{ source: "CAMPAIGNCTL_API_KEY", pages: 1, rows: 2, ok: true, retry: false }],
    projects: 2,
    counts: { written: 2, sameHour: 0, unchanged: 0, places: [] },
    diagnostics: [],
  };
  const error = { severity: "error", code: "results.store-unusable", message: "x" } as const;
  test("written, no error, every key read: whole; anything less is recorded again", () => {
    expect(recordedWhole(summary)).toBe(true);
    expect(recordedWhole({ ...summary, counts: null })).toBe(false);
    // One file of the store could not be written, the others were.
    expect(recordedWhole({ ...summary, diagnostics: [error] })).toBe(false);
    // One key's statistics could not be read (a warning): its projects were not recorded.
    const failed = { source: "K", pages: 0, rows: 0, ok: false, retry: true };
    expect(recordedWhole({ ...summary, keys: [...summary.keys, failed] })).toBe(false);
    // A key the API refused at its check is never checked again in the run: nothing to record again.
    expect(recordedWhole({ ...summary, keys: [...summary.keys, { ...failed, retry: false }] })).toBe(true);
    expect(recordedWhole({ ...summary, diagnostics: [{ ...error, severity: "warning" }] })).toBe(true);
  });
});

describe("recordDue", () => {
  const h15 = "2026-12-01T15:00:00Z";
  const h16 = "2026-12-01T16:00:00Z";
  const at = (iso: string) => Date.parse(iso);
  test("the first poll records; a recorded hour is not recorded again", () => {
    expect(recordDue(NO_RECORDING, h15, at("2026-12-01T15:10:00Z"))).toBe(true);
    const done = afterRecording(NO_RECORDING, h15, at("2026-12-01T15:10:00Z"), true);
    expect(recordDue(done, h15, at("2026-12-01T15:59:59Z"))).toBe(false);
    expect(recordDue(done, h16, at("2026-12-01T16:00:00Z"))).toBe(true);
  });

  test("a recording that wrote nothing is tried again a minute later, and at once in a new hour", () => {
    const failed = afterRecording(NO_RECORDING, h15, at("2026-12-01T15:59:30Z"), false);
    expect(recordDue(failed, h15, at("2026-12-01T15:59:45Z"))).toBe(false);
    expect(recordDue(failed, h16, at("2026-12-01T16:00:00Z"))).toBe(true);
    const early = afterRecording(NO_RECORDING, h15, at("2026-12-01T15:10:00Z"), false);
    expect(recordDue(early, h15, at("2026-12-01T15:11:00Z"))).toBe(true);
  });
});
