/**
 * Issue 38's acceptance, against the sandbox on a virtual clock of 200 days (moved through its admin
 * routes), with keys per organization and rate limits on: a month of slow sends recorded hourly into
 * the file store and a real PostgreSQL; on day 200, `results` for the first month equals what
 * `GET /projects/stats` gave on day 30 (every counter and the cost, per project and in total),
 * although the API now refuses that window.
 *
 * "Hourly" is recorded where the counters move: at every hour whose statistics differ from the
 * previous hour's (the test's fingerprint of the sandbox's projects), plus the first. That stores
 * exactly what recording every hour stores, because a snapshot equal to its project's previous one
 * is never written (src/results/write-rule.ts); `equivalence.test.ts` proves the two schedules give
 * byte-identical files on a span where both are run.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, api, GOTV_FOLLOWUP, GOTV_REMINDER, VOLUNTEERS } from "../sandbox/helpers.js";
import { scheduleProject } from "../sandbox/sending-fixture.js";
import { record, show, storeLines } from "./harness.js";
import { freshDatabase, HAVE_POSTGRES, warnSkipped } from "./postgres.js";
import { clockTo, DAY, fingerprint, HOUR, resultsFixture, SLOW_SENDS, START_MS } from "./world.js";

warnSkipped("test/results/long-clock.test.ts");

const MONTH_END = Date.parse("2026-12-31T23:00:00Z");
const DAY_200 = START_MS + 200 * DAY;

// biome-ignore lint/suspicious/noExplicitAny: rows of the API's JSON
type Row = any;

let sb: SandboxHandle;
let cwd: string;
let database: { url: string; drop: () => Promise<void> } | undefined;
let onDay30: Row[];
let recordings = 0;

const pgEnv = (): Record<string, string> =>
  database === undefined ? {} : { CAMPAIGNCTL_RESULTS_DATABASE_URL: database.url };

/** Records into both stores at the clock's now. */
async function recordBoth(): Promise<void> {
  const files = await record(sb, cwd, ["--json"], { json: true });
  expect(files.code, files.stderr).toBe(0);
  if (database !== undefined) {
    const db = await record(
      sb,
      cwd,
      ["--store", "postgres", "--json"],
      { store: "postgres", json: true },
      pgEnv(),
    );
    expect(db.code, db.stderr).toBe(0);
  }
  recordings++;
}

/** Moves hour by hour to `untilMs`, recording at each hour whose statistics moved. */
async function recordHourlyUntil(untilMs: number, last: { print: string }): Promise<void> {
  for (let at = sb.clock.nowMs() + HOUR; at <= untilMs; at += HOUR) {
    await clockTo(sb, at);
    const print = fingerprint(sb);
    if (print === last.print) continue;
    last.print = print;
    await recordBoth();
  }
}

beforeAll(async () => {
  if (HAVE_POSTGRES) database = await freshDatabase();
  cwd = mkdtempSync(join(tmpdir(), "campaignctl-results-"));
  sb = await startSandbox({ fixture: resultsFixture(), timeScale: 0, rateLimits: true });
  await admin(sb, "PATCH", "/simulation", SLOW_SENDS);
  await scheduleProject(sb, GOTV_REMINDER, new Date(START_MS + HOUR).toISOString());
  await scheduleProject(sb, GOTV_FOLLOWUP, new Date(START_MS + 10 * DAY).toISOString());
  await scheduleProject(sb, VOLUNTEERS, new Date(START_MS + 45 * DAY).toISOString());
  const last = { print: fingerprint(sb) };
  await recordBoth();
  await recordHourlyUntil(MONTH_END, last);
  // Day 30: what the API says of the first month (its window still allowed).
  const stats = await api(sb, "GET", "/projects/stats?startDate=2026-12-01&endDate=2026-12-31&limit=1000");
  expect(stats.status).toBe(200);
  onDay30 = stats.body.data.projects;
  // On to the Volunteer project's sends in January (outside the first month), then day 200.
  await recordHourlyUntil(START_MS + 50 * DAY, last);
  await clockTo(sb, DAY_200);
}, 600_000);

afterAll(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  await database?.drop();
});

/** The first month's results by project, as the API's row members. */
async function firstMonth(flags: Record<string, string>, env: Record<string, string> = {}) {
  const argv = ["--month", "2026-12", "--by", "project", "--json", ...Object.entries(flags).flat()];
  const result = await show(cwd, argv, [], { month: "2026-12", by: "project", json: true, ...flags }, env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

function expectEqualsDay30(document: Row): void {
  const sent = onDay30.filter((r) => r.messages_sent > 0);
  expect(sent.length).toBeGreaterThanOrEqual(2);
  const groups = new Map(document.groups.map((g: Row) => [g.key, g]));
  let costE4 = 0;
  for (const row of sent) {
    expect(groups.get(row.id), `${row.name} in the results`).toMatchObject({
      sent: row.messages_sent,
      delivered: row.messages_delivered,
      failed: row.messages_failed,
      opted_out: row.messages_opted_out,
      replies: row.replies_received,
      clicks: row.total_url_clicks,
      unique_clicks: row.unique_url_clicks,
      cost: row.actual_cost,
    });
    costE4 += Math.round(Number(row.actual_cost) * 10_000);
  }
  const sum = (k: string) => sent.reduce((a, r) => a + r[k], 0);
  expect(document.total).toMatchObject({
    sent: sum("messages_sent"),
    replies: sum("replies_received"),
    clicks: sum("total_url_clicks"),
    opted_out: sum("messages_opted_out"),
    cost: `${Math.floor(costE4 / 10_000)}.${String(costE4 % 10_000).padStart(4, "0")}`,
  });
  // Every counter moved in the month, and the Volunteer sends of January are not in it (the project
  // is listed: it was scheduled in December).
  for (const k of ["sent", "delivered", "failed", "opted_out", "replies", "clicks"])
    expect(document.total[k], k).toBeGreaterThan(0);
  expect(groups.get(VOLUNTEERS)).toMatchObject({ sent: 0, cost: "0.0000" });
}

describe("a month recorded hourly, read on day 200", () => {
  it("the API refuses the first month's window on day 200", async () => {
    const r = await api(sb, "GET", "/projects/stats?startDate=2026-12-01&endDate=2026-12-31");
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("VALIDATION_ERROR");
    expect(r.body.details[0].path).toEqual(["startDate"]);
    const now = await api(sb, "GET", "/projects/stats");
    expect(now.body.data.projects).toEqual([]);
  });

  it("the files give the first month as the API gave it on day 30", async () => {
    expect(recordings).toBeGreaterThan(40);
    expectEqualsDay30(await firstMonth({}));
  });

  it.runIf(HAVE_POSTGRES)(
    "PostgreSQL gives the first month as the API gave it on day 30, as the files do",
    async () => {
      const fromDb = await firstMonth({ store: "postgres" }, pgEnv());
      expectEqualsDay30(fromDb);
      const fromFiles = await firstMonth({});
      expect({ ...fromDb, store: "" }).toEqual({ ...fromFiles, store: "" });
    },
  );

  it("the store's counters never go down, and the January sends are recorded", async () => {
    const lines = storeLines(join(cwd, "results")).map((l) => JSON.parse(l.line));
    const byProject = new Map<string, Row[]>();
    for (const s of lines) byProject.set(s.project_id, [...(byProject.get(s.project_id) ?? []), s]);
    for (const [id, list] of byProject) {
      list.sort((a, b) => (a.at < b.at ? -1 : 1));
      for (let i = 1; i < list.length; i++)
        for (const k of [
          "messages_sent",
          "messages_delivered",
          "replies_received",
          "total_url_clicks",
          "actual_cost",
        ])
          expect(Number(list[i][k]), `${id} ${k} at ${list[i].at}`).toBeGreaterThanOrEqual(
            Number(list[i - 1][k]),
          );
    }
    expect(
      lines.some((s) => s.project_id === VOLUNTEERS && s.messages_sent > 0 && s.hour.startsWith("2027-01")),
    ).toBe(true);
  });

  it("the trend by day adds up to the month, and shows the two sending stretches", async () => {
    const document = await firstMonth({ every: "day" });
    const trend = document.total.trend as Row[];
    expect(trend).toHaveLength(31);
    expect(trend.reduce((a: number, b: Row) => a + b.sent, 0)).toBe(document.total.sent);
    const sendingDays = trend.filter((b: Row) => b.sent > 0).map((b: Row) => b.start);
    expect(sendingDays).toContain("2026-12-01");
    expect(sendingDays).toContain("2026-12-11");
    expect(sendingDays).not.toContain("2026-12-20");
  });
});
