/**
 * `campaignctl status` end to end against a sandbox started at a fixed instant: projects really
 * send on the virtual clock, then status's totals equal the sandbox's own counters, read in bulk
 * over more than one stats page and every stats window; a project no row lists is read by id;
 * ranges older than 90 days are refused before any stats request; the four outputs agree.
 */
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type StatsWindow, statsWindows } from "../../src/plan/refresh-stats.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import type { CliResult } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";
import { admin, CHILD_ORG, GOTV_REMINDER, ORG } from "../sandbox/helpers.js";
import { scheduleProject } from "../sandbox/sending-fixture.js";
import { parseCsv } from "./csv.js";
import { clearRequests, type RawProject, rawProjects, requestCounts, runStatus } from "./harness.js";
import { AWKWARD_NAMES, campaignFile, START, type StatusWorld, statusWorld, workDir } from "./world.js";

const DAY = 86_400_000;
let sb: SandboxHandle;
let world: StatusWorld;
/** Every project's raw record after the sends finished. */
let raw: Map<string, RawProject>;
/** The projects the statistics list over the default range (updated in the last 90 days). */
let inRange: RawProject[];
/**
 * The first `status --all --json`, run once with a cold cache in `warm` (the first test checks it
 * and its requests): each test that does not count reads by id starts from a copy of the cache it
 * left ({@link warmWorkDir}), instead of reading every project by id again.
 */
let warm: string;
let first: { readonly run: CliResult; readonly counts: Record<string, number> };

// biome-ignore lint/suspicious/noExplicitAny: the JSON documents are checked against their schema
type Json = any;

const e4 = (n: number): string => `${Math.floor(n / 10_000)}.${String(n % 10_000).padStart(4, "0")}`;

beforeAll(async () => {
  world = statusWorld();
  sb = await startSandbox({ fixture: world.fixture, timeScale: 0, rateLimits: true });
  expect(sb.clock.now().toISOString()).toBe(START.toISOString());
  await admin(sb, "PATCH", "/simulation", { failure_rate: 0.15, reply_rate: 0.3, opt_out_share: 0.5 });
  for (const id of world.sending) await scheduleProject(sb, id, START.toISOString());
  // Sends take seconds, receipts 2 s, replies up to 10 min: half an hour settles everything.
  await admin(sb, "POST", "/clock/advance", { ms: 30 * 60_000 });
  raw = rawProjects(sb);
  const since = statsWindows(sb.clock.now()).at(-1)?.startMs ?? 0;
  inRange = [...raw.values()].filter((p) => Date.parse(p.updated_at) >= since);
  await clearRequests(sb);
  warm = workDir();
  const run = await runStatus(sb, warm, ["--all", "--json"], [], { all: true, json: true });
  first = { run, counts: await requestCounts(sb) };
}, 120_000);

/** A new working directory holding a copy of the cache the first status left (every estimate in it). */
function warmWorkDir(): string {
  const dir = workDir();
  cpSync(join(warm, ".campaignctl"), join(dir, ".campaignctl"), { recursive: true });
  return dir;
}

afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

function sums(projects: readonly RawProject[]) {
  const add = (f: (p: RawProject) => number): number => projects.reduce((a, p) => a + f(p), 0);
  return {
    projects: projects.length,
    recipients: add((p) => p.total_recipients),
    sent: add((p) => p.counters.messages_sent),
    delivered: add((p) => p.counters.messages_delivered),
    failed: add((p) => p.counters.messages_failed),
    opted_out: add((p) => p.counters.messages_opted_out),
    replies: add((p) => p.counters.replies_received),
    actual_cost: e4(add((p) => p.counters.actual_cost_e4)),
    estimated_cost: e4(add((p) => p.estimated_cost_cents * 100)),
  };
}

/** The stats pages a window needs: its rows (the projects whose life overlaps it) in pages of 1,000. */
function pagesOf(w: StatsWindow): number {
  const end = Date.parse(`${w.endDate}T00:00:00Z`) + DAY;
  const rows = [...raw.values()].filter(
    (p) => Date.parse(p.created_at) < end && Date.parse(p.updated_at) >= w.startMs,
  ).length;
  return Math.max(1, Math.ceil(rows / 1000));
}

/** The stats pages of the default range: every window's. */
function expectedPages(): number {
  return statsWindows(sb.clock.now()).reduce((pages, w) => pages + pagesOf(w), 0);
}

describe("status --all after a simulated send", () => {
  test("totals equal the sandbox's counters, over more than one page and every window", async () => {
    const sent = world.sending.map((id) => raw.get(id));
    for (const p of sent) expect(p?.counters.messages_sent).toBe(38);
    expect(sent.some((p) => (p?.counters.messages_failed ?? 0) > 0)).toBe(true);
    expect(sent.some((p) => (p?.counters.messages_opted_out ?? 0) > 0)).toBe(true);

    // The first status (beforeAll), from a cold cache.
    const { run, counts } = first;
    expect(run.code).toBe(0);
    const doc: Json = documentOf("status-result", run.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.diagnostics).toEqual([]);
    expect(doc.range.windows).toHaveLength(3);

    const expected = sums(inRange);
    expect(doc.totals).toMatchObject({
      ...expected,
      projects_without_statistics: 0,
      projects_without_estimate: 0,
    });
    expect(doc.projects).toHaveLength(inRange.length);
    expect(inRange.length).toBeGreaterThan(1000);
    expect(inRange.length).toBeLessThan(raw.size); // the ancient ones are out of every window
    const shown = new Set(doc.projects.map((p: Json) => p.id));
    // Listed only by the older windows: every middle-aged and old one is shown (one assertion
    // naming those that are not, not one per project).
    const older = world.generated.filter((x) => x.age === "middle" || x.age === "old");
    expect(older.length).toBeGreaterThan(0);
    expect(older.filter((g) => !shown.has(g.id)).map((g) => g.id)).toEqual([]);

    for (const [org, name] of [
      [ORG, "Riverside Democrats"],
      [CHILD_ORG, "Riverside Young Democrats"],
    ] as const) {
      const group = doc.organizations.find((g: Json) => g.organization_id === org);
      expect(group.organization_name).toBe(name);
      expect(group.totals).toMatchObject(sums(inRange.filter((p) => p.organization_id === org)));
    }
    // Every project's figures are the sandbox's (one comparison of every row, not one per row).
    const figures = (p: Json) => ({
      id: p.id,
      source: p.source,
      status: p.status,
      sent: p.sent,
      delivered: p.delivered,
      failed: p.failed,
      opted_out: p.opted_out,
      actual_cost: p.actual_cost,
      estimated_cost: p.estimated_cost,
    });
    expect(doc.projects.map(figures)).toEqual(
      doc.projects.map((p: Json) => {
        const r = raw.get(p.id) as RawProject;
        return {
          id: p.id,
          source: "statistics",
          status: r.status,
          sent: r.counters.messages_sent,
          delivered: r.counters.messages_delivered,
          failed: r.counters.messages_failed,
          opted_out: r.counters.messages_opted_out,
          actual_cost: e4(r.counters.actual_cost_e4),
          estimated_cost: e4(r.estimated_cost_cents * 100),
        };
      }),
    );

    // Rates of the total come from the sums.
    const t = doc.totals;
    expect(t.delivery_rate).toBe(Math.round((t.delivered / t.sent) * 10_000) / 10_000);
    expect(t.opt_out_rate).toBe(Math.round((t.opted_out / t.delivered) * 10_000) / 10_000);

    // In bulk: the stats pages of three windows (two in the newest), then one read per project for
    // its estimate (a cold cache), and nothing else but the organizations.
    expect(doc.reads.stats_pages).toBe(expectedPages());
    expect(doc.reads.stats_pages).toBeGreaterThan(3);
    expect(counts["GET /projects/stats"]).toBe(doc.reads.stats_pages);
    expect(counts["GET /projects/{id}"]).toBe(inRange.length);
    expect(doc.reads).toMatchObject({ projects_read_by_id: inRange.length, details_from_cache: 0 });
    expect(Object.keys(counts).sort()).toEqual([
      "GET /organizations",
      "GET /projects/stats",
      "GET /projects/{id}",
    ]);

    // A second status takes every estimate from the cache: only the stats pages are read.
    await clearRequests(sb);
    const again: Json = documentOf(
      "status-result",
      (await runStatus(sb, warm, ["--all", "--json"], [], { all: true, json: true })).stdout,
    );
    expect(again.totals).toEqual(doc.totals);
    expect(again.reads).toMatchObject({ projects_read_by_id: 0, details_from_cache: inRange.length });
    expect((await requestCounts(sb))["GET /projects/{id}"]).toBeUndefined();
  }, 120_000);

  test("--no-estimate reads no project by id and leaves the estimates unknown", async () => {
    await clearRequests(sb);
    const run = await runStatus(sb, workDir(), ["--all", "--json", "--no-estimate"], [], {
      all: true,
      json: true,
      estimate: false,
    });
    const doc: Json = documentOf("status-result", run.stdout);
    expect(doc.estimates).toBe(false);
    expect(doc.totals).toMatchObject({
      sent: sums(inRange).sent,
      estimated_cost: null,
      projects_without_estimate: inRange.length,
    });
    expect((await requestCounts(sb))["GET /projects/{id}"]).toBeUndefined();
  }, 60_000);

  test("CSV parses back as a table whose rows equal the JSON figures", async () => {
    const dir = warmWorkDir();
    const csv = await runStatus(sb, dir, ["--all", "--format", "csv"], [], { all: true, format: "csv" });
    expect(csv.code).toBe(0);
    expect(csv.stdout.endsWith("\r\n")).toBe(true);
    const table = parseCsv(csv.stdout);
    const [header, ...rows] = table;
    expect(header?.slice(0, 4)).toEqual(["level", "organization_id", "organization", "project_id"]);
    // Every row has the header's cells (one comparison of every row's length, not one per row).
    expect(rows.map((row) => row.length)).toEqual(rows.map(() => header?.length ?? 0));
    const json: Json = documentOf(
      "status-result",
      (await runStatus(sb, dir, ["--all", "--json"], [], { all: true, json: true })).stdout,
    );
    const col = (name: string): number => header?.indexOf(name) ?? -1;
    const projects = rows.filter((r) => r[col("level")] === "project");
    expect(projects).toHaveLength(json.projects.length);
    expect(rows.filter((r) => r[col("level")] === "organization")).toHaveLength(json.organizations.length);
    const total = rows.find((r) => r[col("level")] === "total") as string[];
    expect(total[col("sent")]).toBe(String(json.totals.sent));
    expect(total[col("actual_cost")]).toBe(json.totals.actual_cost);
    expect(total[col("delivery_rate")]).toBe(json.totals.delivery_rate.toFixed(4));
    // Each project row equals its JSON figures, in order (one comparison of every row).
    const cells = ["project_id", "sent", "actual_cost", "name"].map(col);
    expect(projects.map((row) => cells.map((c) => row[c]))).toEqual(
      json.projects.map((p: Json) => [
        p.id,
        String(p.sent),
        p.actual_cost,
        // A name a spreadsheet would run as a formula is defused with a leading quote.
        /^[=+\-@]/.test(p.name) ? `'${p.name}` : p.name,
      ]),
    );
    for (const name of Object.values(AWKWARD_NAMES))
      expect(projects.some((r) => r[col("name")]?.replace(/^'/, "") === name)).toBe(true);
  }, 60_000);

  test("the table fits 80 and 160 columns; --markdown writes tables with the names escaped", async () => {
    const dir = warmWorkDir();
    for (const width of [80, 160]) {
      const run = await runStatus(
        sb,
        dir,
        ["--organization", "Riverside Young Democrats", "--width", String(width)],
        [],
        { organization: "Riverside Young Democrats", width: String(width) },
      );
      expect(run.code).toBe(0);
      expect(run.stdout.split("\n").filter((line) => line.length > width)).toEqual([]);
      expect(run.stdout.split("\n")[0]).toMatch(/^PROJECT +STATUS +/);
      if (width === 160) expect(run.stdout).not.toContain("Hidden to fit");
      else expect(run.stdout).toContain("Hidden to fit the terminal: RECIPIENTS");
    }
    const md = await runStatus(sb, dir, ["--all", "--json", "--markdown", "out/status.md"], [], {
      all: true,
      json: true,
      markdown: "out/status.md",
    });
    expect(md.code).toBe(0);
    const totals = documentOf("status-result", md.stdout).totals as Json;
    const text = readFileSync(join(dir, "out/status.md"), "utf8");
    expect(text).toContain("### Riverside Democrats");
    expect(text).toContain("### Riverside Young Democrats");
    expect(text).toContain("### All organizations");
    expect(text).toContain(`| **Total, ${totals.projects.toLocaleString("en-US")} projects** |`);
    expect(text).toContain('Town hall, "Q&amp;A" night');
    expect(text).toContain("Line one line two \\| @&#8203;everyone #&#8203;12");
    const tableLines = text.split("\n").filter((l) => l.startsWith("| "));
    expect(tableLines.filter((l) => l.split(/(?<!\\)\|/).length !== 17)).toEqual([]);
  }, 60_000);
});

describe("status of campaign files", () => {
  test("files in the newest window: that window's stats pages, their details, nothing else", async () => {
    const dir = workDir({ "c.yaml": campaignFile({ "gotv-reminder": GOTV_REMINDER }) });
    await clearRequests(sb);
    const run = await runStatus(sb, dir, ["--json"], [], { json: true });
    expect(run.code).toBe(0);
    const doc: Json = documentOf("status-result", run.stdout);
    expect(doc.selection.paths).toEqual(["."]);
    expect(doc.projects).toHaveLength(1);
    expect(doc.projects[0]).toMatchObject({ address: "gotv-reminder", source: "statistics", sent: 38 });
    const newest = statsWindows(sb.clock.now())[0] as StatsWindow;
    expect(pagesOf(newest)).toBe(2);
    expect(doc.reads.stats_pages).toBe(2);
    expect(await requestCounts(sb)).toEqual({
      "GET /organizations": 1,
      "GET /projects/stats": 2,
      "GET /projects/{id}": 1,
    });
  });

  test("a project no row lists is read by id, never guessed; a missing one is an error", async () => {
    const ancient = world.generated.find((g) => g.age === "ancient");
    const missing = "9c000000-0000-4000-8000-00000000ffff";
    const dir = workDir({
      "c.yaml": campaignFile({ "gotv-reminder": GOTV_REMINDER, "old-one": ancient?.id ?? "", gone: missing }),
    });
    const run = await runStatus(sb, dir, ["c.yaml", "--json"], ["c.yaml"], { json: true });
    expect(run.code).toBe(1);
    const doc: Json = documentOf("status-result", run.stdout);
    expect(doc.ok).toBe(false);
    const old = raw.get(ancient?.id ?? "") as RawProject;
    expect(doc.projects.map((p: Json) => [p.address, p.source])).toEqual([
      ["gotv-reminder", "statistics"],
      ["old-one", "detail"],
      ["gone", "unreadable"],
    ]);
    expect(doc.projects[1]).toMatchObject({
      status: old.status,
      recipients: old.total_recipients,
      estimated_cost: e4(old.estimated_cost_cents * 100),
      sent: null,
      delivered: null,
      actual_cost: null,
      delivery_rate: null,
    });
    expect(doc.diagnostics.map((d: Json) => [d.severity, d.code])).toEqual(
      expect.arrayContaining([
        ["warning", "status.no-statistics"],
        ["error", "status.project-not-found"],
      ]),
    );
    expect(doc.totals).toMatchObject({
      projects: 3,
      projects_without_statistics: 2,
      sent: raw.get(GOTV_REMINDER)?.counters.messages_sent,
    });
    expect(doc.reads.stats_pages).toBe(expectedPages()); // the unlisted ones make it read every window

    const text = await runStatus(sb, dir, ["c.yaml", "--width", "160"], ["c.yaml"], { width: "160" });
    expect(text.code).toBe(1);
    const line = text.stdout.split("\n").find((l) => l.startsWith("old-one")) ?? "";
    expect(line).toMatch(/^old-one +completed|^old-one +draft/);
    expect(line).toContain("?");
    expect(text.stdout).toContain("The totals leave out the counters of 2 projects");
    expect(text.stderr).toContain("status.project-not-found");
  });
});

describe("the range", () => {
  test.each([
    ["2026-09-02", "status.range-too-old"],
    ["2026-01-01", "status.range-too-old"],
    ["2026-12-02", "status.range-in-future"],
  ])("--since %s is refused (%s) before any stats request", async (since, code) => {
    await clearRequests(sb);
    const run = await runStatus(sb, workDir(), ["--all", "--json", "--since", since], [], {
      all: true,
      json: true,
      since,
    });
    expect(run.code).toBe(1);
    const doc: Json = documentOf("error-result", run.stdout);
    expect(doc.diagnostics.map((d: Json) => d.code)).toEqual([code]);
    expect(run.stderr).toContain(code);
    expect((await requestCounts(sb))["GET /projects/stats"]).toBeUndefined();
  });

  test("the oldest day allowed is read; a recent --since reads one narrowed window", async () => {
    const oldest = await runStatus(sb, warmWorkDir(), ["--all", "--json", "--since", "2026-09-03"], [], {
      all: true,
      json: true,
      since: "2026-09-03",
    });
    expect(oldest.code).toBe(0);
    const recent = await runStatus(sb, warmWorkDir(), ["--all", "--json", "--since", "2026-11-25"], [], {
      all: true,
      json: true,
      since: "2026-11-25",
    });
    const doc: Json = documentOf("status-result", recent.stdout);
    expect(doc.range).toEqual({
      since: "2026-11-25",
      until: "2026-12-01",
      windows: [{ start_date: "2026-11-25", end_date: "2026-12-01" }],
    });
    const since = Date.parse("2026-11-25T00:00:00Z");
    const listed = [...raw.values()].filter((p) => Date.parse(p.updated_at) >= since);
    expect(doc.projects.map((p: Json) => p.id).sort()).toEqual(listed.map((p) => p.project_id).sort());
    expect(doc.totals.sent).toBe(sums(listed).sent);
  });

  test.each([
    [["--since", "2026-13-01"], { since: "2026-13-01" }],
    [["--width", "5"], { width: "5" }],
    [["--json", "--format", "csv"], { json: true, format: "csv" as const }],
  ])("%j is a usage error before any request", async (argv, flags) => {
    await clearRequests(sb);
    const run = await runStatus(sb, workDir(), ["--all", ...argv], [], { all: true, ...flags });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("cli.usage");
    expect(await requestCounts(sb)).toEqual({});
  });

  test("--organization naming nothing is refused", async () => {
    const run = await runStatus(sb, workDir(), ["--organization", "Nobody", "--json"], [], {
      organization: "Nobody",
      json: true,
    });
    expect(run.code).toBe(1);
    expect(documentOf("error-result", run.stdout).diagnostics).toMatchObject([
      { code: "status.unknown-organization" },
    ]);
  });
});
