/**
 * What `results record` writes to the file store (docs/results.md "What is written"), against the
 * sandbox with slow sends: recording every hour and recording only where the counters move give the
 * same bytes; recording the same hour twice adds nothing (files and PostgreSQL); a torn last line is
 * skipped by `results` and cut, loudly, by the next recording; a broken line, a held lock and a
 * connection string typed as a flag are refused with their codes.
 */
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, GOTV_FOLLOWUP, GOTV_REMINDER } from "../sandbox/helpers.js";
import { scheduleProject } from "../sandbox/sending-fixture.js";
import { record, show, storeLines } from "./harness.js";
import { freshDatabase, HAVE_POSTGRES, query, warnSkipped } from "./postgres.js";
import { clockTo, fingerprint, HOUR, resultsFixture, SLOW_SENDS, START_MS } from "./world.js";

warnSkipped("test/results/recording.test.ts");

let sb: SandboxHandle;
const fresh = () => mkdtempSync(join(tmpdir(), "campaignctl-results-rec-"));
const tree = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const org of readdirSync(join(dir, "results")))
    for (const name of readdirSync(join(dir, "results", org)))
      out[`${org}/${name}`] = readFileSync(join(dir, "results", org, name), "utf8");
  return out;
};
const recorded = (stdout: string) =>
  JSON.parse(stdout) as { written: number; same_hour: number; unchanged: number; projects: number };

beforeAll(async () => {
  sb = await startSandbox({ fixture: resultsFixture(), timeScale: 0, rateLimits: true });
  await admin(sb, "PATCH", "/simulation", SLOW_SENDS);
  await scheduleProject(sb, GOTV_REMINDER, new Date(START_MS + HOUR).toISOString());
});
afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

describe("the write rule", () => {
  it("recording every hour and recording where the counters move store the same bytes", async () => {
    const every = fresh();
    const moving = fresh();
    let last = "";
    let everyWritten = 0;
    let movingRuns = 0;
    for (let h = 0; h < 54; h++) {
      if (h > 0) await clockTo(sb, START_MS + h * HOUR);
      const all = await record(sb, every, ["--json"], { json: true });
      expect(all.code, all.stderr).toBe(0);
      everyWritten += recorded(all.stdout).written;
      const print = fingerprint(sb);
      if (print !== last) {
        last = print;
        movingRuns++;
        expect((await record(sb, moving, ["--json"], { json: true })).code).toBe(0);
      }
    }
    expect(tree(moving)).toEqual(tree(every));
    // The project sent for 38 hours, its replies and clicks came for hours after; then nothing moved.
    expect(movingRuns).toBeGreaterThan(38);
    expect(movingRuns).toBeLessThan(54);
    expect(everyWritten).toBe(storeLines(join(every, "results")).length);
    expect(everyWritten).toBeLessThan(54 * 4);
  });

  it("recording the same hour twice adds nothing, though the counters moved within the hour", async () => {
    const dir = fresh();
    const hour = sb.clock.nowMs() + HOUR - (sb.clock.nowMs() % HOUR);
    await scheduleProject(sb, GOTV_FOLLOWUP, new Date(hour + 10 * 60_000).toISOString()); // sends from hh:10
    await clockTo(sb, hour + 5 * 60_000); // hh:05
    const first = recorded((await record(sb, dir, ["--json"], { json: true })).stdout);
    const before = tree(dir);
    const print = fingerprint(sb);
    await clockTo(sb, sb.clock.nowMs() + 35 * 60_000); // hh:40, the project sent meanwhile
    expect(fingerprint(sb)).not.toBe(print);
    const second = recorded((await record(sb, dir, ["--json"], { json: true })).stdout);
    expect(first.written).toBe(first.projects);
    expect(second).toMatchObject({ written: 0, same_hour: second.projects, unchanged: 0 });
    expect(tree(dir)).toEqual(before);
    await clockTo(sb, sb.clock.nowMs() + 30 * 60_000); // the next hour: the move is recorded
    expect(recorded((await record(sb, dir, ["--json"], { json: true })).stdout).written).toBeGreaterThan(0);
  });

  it.runIf(HAVE_POSTGRES)("recording the same hour twice adds no row to PostgreSQL", async () => {
    const db = await freshDatabase();
    try {
      const env = { CAMPAIGNCTL_RESULTS_DATABASE_URL: db.url };
      const argv = ["--store", "postgres", "--json"];
      const first = recorded(
        (await record(sb, fresh(), argv, { store: "postgres", json: true }, env)).stdout,
      );
      await clockTo(sb, sb.clock.nowMs() + 60_000);
      const second = recorded(
        (await record(sb, fresh(), argv, { store: "postgres", json: true }, env)).stdout,
      );
      const rows = await query<{ n: string }>(
        db.url,
        "SELECT count(*) AS n FROM campaignctl_results_snapshots",
      );
      expect(Number(rows[0]?.n)).toBe(first.written);
      expect(second.written).toBe(0);
      expect(second.same_hour + second.unchanged).toBe(second.projects);
      const migrations = await query(db.url, "SELECT component, version FROM campaignctl_migrations");
      expect(migrations).toEqual([{ component: "results", version: 1 }]);
    } finally {
      await db.drop();
    }
  });
});

describe("a damaged store", () => {
  it("a torn last line is skipped by results and cut, loudly, by the next recording", async () => {
    const dir = fresh();
    await clockTo(sb, sb.clock.nowMs() + HOUR);
    expect((await record(sb, dir, [], {})).code).toBe(0);
    const [file] = Object.keys(tree(dir));
    const path = join(dir, "results", file ?? "");
    const whole = readFileSync(path, "utf8");
    const lastLine = whole.trimEnd().split("\n").pop() ?? "";
    // What a kill in the middle of a write leaves: the start of a line, no newline.
    appendFileSync(path, lastLine.slice(0, 40));
    const read = await show(dir, [], [], {}, {}, () => sb.clock.nowMs());
    expect(read.code).toBe(0);
    expect(read.stderr).toContain("results.torn-line-cut");
    expect(read.stderr).toContain(`results/${file}: its last line is cut short (40 bytes`);
    await clockTo(sb, sb.clock.nowMs() + HOUR);
    const again = await record(sb, dir, [], {});
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(
      `warning[results.torn-line-cut]: results/${file}: its last line was cut short (40 bytes`,
    );
    expect(readFileSync(path, "utf8").startsWith(whole)).toBe(true);
    storeLines(join(dir, "results"));
  });

  it("a line that is no snapshot stops the file, with its place", async () => {
    const dir = fresh();
    expect((await record(sb, dir, [], {})).code).toBe(0);
    const [file] = Object.keys(tree(dir));
    const path = join(dir, "results", file ?? "");
    writeFileSync(path, `${readFileSync(path, "utf8")}{"format_version":1}\n`);
    const lines = readFileSync(path, "utf8").split("\n").length - 1;
    const read = await show(dir, ["--json"], [], { json: true });
    expect(read.code).toBe(1);
    expect(JSON.parse(read.stdout)).toMatchObject({ error: true });
    expect(read.stderr).toContain(`results.store-invalid`);
    expect(read.stderr).toContain(`results/${file}:${lines}: not a results snapshot`);
    await clockTo(sb, sb.clock.nowMs() + HOUR);
    const again = await record(sb, dir, [], {});
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("results.store-invalid");
  });

  it("a recording running elsewhere holds the store", async () => {
    const dir = fresh();
    mkdirSync(join(dir, "results"));
    writeFileSync(join(dir, "results", ".record.lock"), `${process.ppid}\n`);
    const held = await record(sb, dir, [], {});
    expect(held.code).toBe(1);
    expect(held.stderr).toContain(`error[results.store-locked]: another recording (process ${process.ppid})`);
  });

  it("a connection string typed as --store is refused and never repeated", async () => {
    const url = "postgres://analyst:Sup3rSecretPw@db.example.org:5432/results";
    const result = await record(sb, fresh(), ["--store", url], { store: url });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("results.database-url-in-flag");
    expect(result.stderr).not.toContain("Sup3rSecretPw");
    expect(result.stderr).not.toContain("db.example.org");
  });

  it("--store postgres without its variable names the variable", async () => {
    const result = await record(sb, fresh(), ["--store", "postgres"], { store: "postgres" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error[results.database-url-missing]");
    expect(result.stderr).toContain("CAMPAIGNCTL_RESULTS_DATABASE_URL");
  });
});

describe("files copied by git", () => {
  it("a clone's results read the same as the original's", async () => {
    const dir = fresh();
    expect((await record(sb, dir, [], {})).code).toBe(0);
    const clone = fresh();
    cpSync(join(dir, "results"), join(clone, "results"), { recursive: true });
    const a = await show(dir, ["--json", "--by", "project"], [], { json: true, by: "project" });
    const b = await show(clone, ["--json", "--by", "project"], [], { json: true, by: "project" });
    expect(b.stdout).toBe(a.stdout);
  });
});
