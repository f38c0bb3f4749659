/**
 * `results.key-unreadable` says "the next recording catches up" (docs/results.md "Recording"): a
 * recording whose keys could not read the statistics loses that hour's snapshots for good, but the
 * counters are lifetime counts, so the next hour's snapshot carries everything that moved meanwhile.
 * Proved here against a store recorded every hour without a failure: the period's figures are the
 * same to the last counter and cent, the day's trend too; only the failed hour's snapshots are
 * missing, and their movement shows in the hour after.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, GOTV_REMINDER } from "../sandbox/helpers.js";
import { scheduleProject } from "../sandbox/sending-fixture.js";
import { record, show, storeLines } from "./harness.js";
import { clockTo, HOUR, resultsFixture, SLOW_SENDS, START_MS } from "./world.js";

let sb: SandboxHandle;
const fresh = () => mkdtempSync(join(tmpdir(), "campaignctl-results-catch-up-"));
const FAILED_HOUR = 5;

beforeAll(async () => {
  sb = await startSandbox({ fixture: resultsFixture(), timeScale: 0, rateLimits: true });
  await admin(sb, "PATCH", "/simulation", SLOW_SENDS);
  await scheduleProject(sb, GOTV_REMINDER, new Date(START_MS + HOUR).toISOString());
});
afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

describe("a recording whose keys could not read the statistics", () => {
  it("loses its hour's snapshots, and the next hour catches the figures up", async () => {
    const whole = fresh();
    const gap = fresh();
    for (let h = 0; h < 9; h++) {
      if (h > 0) await clockTo(sb, START_MS + h * HOUR + 60_000);
      expect((await record(sb, whole, [], {})).code).toBe(0);
      if (h === FAILED_HOUR) await admin(sb, "POST", "/faults", { spec: "GET /projects/stats: status(503)" });
      const second = await record(sb, gap, [], {});
      if (h === FAILED_HOUR) {
        expect(second.code).toBe(1);
        expect(second.stderr).toContain("error[results.key-unreadable]");
        await admin(sb, "DELETE", "/faults");
      } else expect(second.code, second.stderr).toBe(0);
    }
    const hourOf = (dir: string) =>
      storeLines(join(dir, "results")).map((l) => (JSON.parse(l.line) as { hour: string }).hour);
    const failed = new Date(START_MS + FAILED_HOUR * HOUR).toISOString().replace(".000Z", "Z");
    expect(hourOf(whole)).toContain(failed);
    expect(hourOf(gap)).not.toContain(failed);
    const argv = ["--by", "project", "--json"];
    const figures = async (dir: string) => {
      const doc = JSON.parse((await show(dir, argv, [], { by: "project", json: true })).stdout) as {
        total: Record<string, unknown>;
        groups: Record<string, unknown>[];
      };
      return { total: doc.total, groups: doc.groups };
    };
    const a = await figures(whole);
    expect(Number(a.total.sent)).toBeGreaterThan(0);
    expect(await figures(gap)).toEqual(a);
  });
});
