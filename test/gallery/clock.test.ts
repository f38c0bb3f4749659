/**
 * The gallery the browser test screenshots is the same bytes whatever the date and the hour: no
 * "now" reaches the page (no generation time, no relative time, no schedule judged against today)
 * for files whose schedules are all ahead. Both clocks are moved: the machine clock the command is
 * given (`Io.clock`) and the process's own `Date`, so a stray `new Date()` is caught too. The page
 * is built, as in the browser test, from one saved plan of the files (its time is the sandbox's).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { clockFrom, TEST_NOW } from "../helpers/clock.js";
import { runCli } from "../helpers/run-cli.js";
import { GALLERY_ARGS, GALLERY_PLAN_ARGS, galleryWorkspace, PLAN_ARGS } from "./fixtures.js";

let savedPlan = "";

beforeAll(async () => {
  const dir = galleryWorkspace();
  await runCli(PLAN_ARGS, { cwd: dir, clock: clockFrom(TEST_NOW) });
  savedPlan = readFileSync(join(dir, "plan.json"), "utf8");
});

/** The gallery of the browser test's files (offline, or from the saved plan), with every clock at `at`. */
async function galleryAt(at: Date, withPlan = true): Promise<string> {
  vi.useFakeTimers({ toFake: ["Date"], now: at });
  const dir = galleryWorkspace();
  writeFileSync(join(dir, "plan.json"), savedPlan);
  const result = await runCli(withPlan ? GALLERY_PLAN_ARGS : GALLERY_ARGS, {
    cwd: dir,
    clock: clockFrom(at),
  });
  expect(result.code, result.stderr).toBe(0);
  return readFileSync(join(dir, "gallery", "index.html"), "utf8");
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the browser test's gallery", () => {
  it.each([
    ["03:00 UTC (night in the US)", "2026-11-24T03:00:00Z"],
    ["09:00 UTC a year ahead", "2027-11-24T09:00:00Z"],
    ["15:00 UTC", "2027-02-28T15:00:00Z"],
    ["21:00 UTC on a leap day", "2028-02-29T21:00:00Z"],
    ["a year and a half day ahead (CI's second run)", "2027-11-25T00:00:00Z"],
    ["the day before the first schedule", "2036-12-06T12:00:00Z"],
  ])("is the same page at %s as at TEST_NOW", async (_, at) => {
    const reference = await galleryAt(TEST_NOW);
    expect(reference).toContain("read from the saved plan <code>plan.json</code>");
    expect(await galleryAt(new Date(at))).toBe(reference);
  });

  it("is the same page offline too", async () => {
    const reference = await galleryAt(TEST_NOW, false);
    expect(reference).toContain("Total: not known until planned");
    expect(await galleryAt(new Date("2027-11-25T00:00:00Z"), false)).toBe(reference);
  });
});
