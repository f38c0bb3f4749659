/**
 * Offline `validate` judges past schedules by the system clock, or by `--now`, and says which: a
 * past schedule is a warning (a sent campaign's file keeps its `at`; only the API's clock decides),
 * so `validate examples` passes on any day.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const examples = new URL("../../examples/", import.meta.url).pathname;

describe("validate and the clock", () => {
  it("years after the examples' story: warnings naming --now, exit 0 (1 with --strict)", async () => {
    const r = await runCli(["validate", "--now", "2030-01-01T00:00:00Z"], { cwd: examples });
    expect(r.code).toBe(0);
    const past = r.stdout.split("\n").filter((l) => l.includes("lint.schedule-in-past"));
    expect(past).toHaveLength(2);
    expect(r.stdout).toContain(
      "gotv-reminder: schedule at 2026-12-07T10:00:00-06:00 is in the past by --now (2030-01-01T00:00:00.000Z); plan judges it against the API's clock",
    );
    expect(r.stdout).toMatch(/0 errors, 2 warnings/);
    const strict = await runCli(["validate", "--strict", "--now", "2030-01-01T00:00:00Z"], { cwd: examples });
    expect(strict.code).toBe(1);
  });

  it("on the story's day: clean", async () => {
    const r = await runCli(["validate", "--strict", "--now", "2026-12-01T15:00:00+00:00"], { cwd: examples });
    expect(r.code).toBe(0);
  });

  it("today, whatever today is: exit 0", async () => {
    const r = await runCli(["validate"], { cwd: examples });
    expect(r.code, r.stdout).toBe(0);
    for (const line of r.stdout.split("\n").filter((l) => l.includes("lint.schedule-in-past")))
      expect(line).toContain("warning");
  });

  it.each(["tomorrow", "2030-01-01", "2030-01-01T00:00:00"])(
    "--now %s (no zone) is a usage error",
    async (value) => {
      const r = await runCli(["validate", "--now", value], { cwd: examples });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("ISO 8601 date-time with a zone");
    },
  );
});
