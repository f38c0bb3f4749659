/**
 * The write rule compares a project with its latest snapshot, however old (docs/results.md "What is
 * written"): a project that has not moved for two months, still listed by an older window
 * (`--days 90`, as the pipeline reads once a day), adds nothing, in the files as in PostgreSQL.
 * Before, the files store looked only at the organization's file of the month and of the month
 * before: it wrote every such project again, so `results` counted it in a month where nothing
 * happened to it, and the two stores no longer held the same snapshots. A project moved to another
 * organization within an hour got a second snapshot of that hour, in the new organization's file.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, CHILD_ORG, EARLY_VOTE } from "../sandbox/helpers.js";
import { record, show, storeLines } from "./harness.js";
import { freshDatabase, HAVE_POSTGRES, warnSkipped } from "./postgres.js";
import { clockTo, DAY, resultsFixture, START_MS } from "./world.js";

warnSkipped("test/results/old-latest.test.ts");

let sb: SandboxHandle;
const fresh = () => mkdtempSync(join(tmpdir(), "campaignctl-results-old-"));
const counts = (stdout: string) =>
  JSON.parse(stdout) as { written: number; same_hour: number; unchanged: number; projects: number };

beforeAll(async () => {
  sb = await startSandbox({ fixture: resultsFixture(), timeScale: 0, rateLimits: true });
});
afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

describe("a project that has not moved for two months", () => {
  it("adds nothing to the files, and counts in no later month", async () => {
    // A week after the start, when what the fixture schedules has sent.
    await clockTo(sb, START_MS + 7 * DAY);
    const dir = fresh();
    const first = counts((await record(sb, dir, ["--json"], { json: true })).stdout);
    expect(first.written).toBe(6);
    // 59 days later (February): nothing has moved; the oldest of the 90 days' windows lists them all.
    await clockTo(sb, START_MS + 66 * DAY);
    const later = counts(
      (await record(sb, dir, ["--days", "90", "--json"], { days: "90", json: true })).stdout,
    );
    expect(later).toMatchObject({ projects: 6, written: 0, same_hour: 0, unchanged: 6 });
    expect(storeLines(join(dir, "results"))).toHaveLength(6);
    const february = await show(dir, ["--month", "2027-02", "--json"], [], { month: "2027-02", json: true });
    expect(JSON.parse(february.stdout).total.projects).toBe(0);
  });

  it.runIf(HAVE_POSTGRES)("the files and PostgreSQL write the same", async () => {
    await admin(sb, "POST", "/reset");
    const db = await freshDatabase();
    try {
      const env = { CAMPAIGNCTL_RESULTS_DATABASE_URL: db.url };
      const dir = fresh();
      const argv = ["--days", "90", "--json"];
      const both = async () => {
        const files = counts((await record(sb, dir, argv, { days: "90", json: true })).stdout);
        const pg = counts(
          (
            await record(
              sb,
              dir,
              [...argv, "--store", "postgres"],
              { days: "90", json: true, store: "postgres" },
              env,
            )
          ).stdout,
        );
        const moved = (c: ReturnType<typeof counts>) => [c.projects, c.written, c.same_hour, c.unchanged];
        expect(moved(files)).toEqual(moved(pg));
        return files;
      };
      await clockTo(sb, START_MS + 7 * DAY);
      expect((await both()).written).toBe(6);
      await clockTo(sb, START_MS + 66 * DAY);
      expect((await both()).written).toBe(0);
    } finally {
      await db.drop();
    }
  });
});

describe("a project moved to another organization", () => {
  it("has one snapshot an hour, whichever organization's file holds it", async () => {
    await admin(sb, "POST", "/reset");
    await clockTo(sb, START_MS + 7 * DAY);
    const dir = fresh();
    expect(counts((await record(sb, dir, ["--json"], { json: true })).stdout).written).toBe(6);
    // Moved in the dashboard within the hour: the next recording of the hour adds nothing for it.
    const moved = sb.store.world.projects[EARLY_VOTE];
    if (moved === undefined) throw new Error("the fixture has no early vote project");
    moved.organization_id = CHILD_ORG;
    await clockTo(sb, START_MS + 7 * DAY + 60_000);
    const again = counts((await record(sb, dir, ["--json"], { json: true })).stdout);
    expect(again).toMatchObject({ projects: 6, written: 0, same_hour: 6 });
    const hours = storeLines(join(dir, "results")).map((l) => {
      const s = JSON.parse(l.line) as { project_id: string; hour: string };
      return `${s.project_id} ${s.hour}`;
    });
    expect(new Set(hours).size).toBe(hours.length);
    // The next hour records the move, in the new organization's file.
    await clockTo(sb, START_MS + 7 * DAY + 3_600_000);
    const next = JSON.parse((await record(sb, dir, ["--json"], { json: true })).stdout) as {
      written: number;
      places: string[];
    };
    expect(next.written).toBe(1);
    expect(next.places).toEqual(["results/riverside-young-democrats/2026-12.jsonl"]);
  });
});
