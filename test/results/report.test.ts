/**
 * The pure core of `results` (src/results/period.ts, movement.ts, report.ts) and its views
 * (src/report/results-*.ts) on hand-made snapshots: periods and buckets, what a period counts,
 * grouping by template, language and label through the campaign files, rates from sums, exact money,
 * and the bytes of the CSV, Markdown and JSON (schema-checked).
 */
import { describe, expect, it } from "vitest";
import { renderResultsCsv } from "../../src/report/results-csv.js";
import { renderResultsJson } from "../../src/report/results-json.js";
import { renderResultsMarkdown } from "../../src/report/results-markdown.js";
import { renderResultsTable } from "../../src/report/results-table.js";
import { bucketsOf, periodOf, periodProblems } from "../../src/results/period.js";
import { armFigures, buildResultsReport, type FileProject, type GroupBy } from "../../src/results/report.js";
import type { ResultsSnapshot } from "../../src/results/snapshot.js";
import { organizationDirectory } from "../../src/results/snapshot.js";
import { chooseWrites } from "../../src/results/write-rule.js";
import { schemaErrors } from "../helpers/schemas.js";
import { snap } from "./snapshots.js";

const OCTOBER = periodOf({ month: "2026-10" }, null, "2026-11-28");

const SNAPSHOTS: ResultsSnapshot[] = [
  // A: 10 sent in September, 40 more in October (by the 15th), 10 more in November.
  snap("A", "2026-09-30T10:00:01.000Z", { sent: 10, replies: 1, costE4: 1_001 }),
  snap("A", "2026-10-15T10:00:01.000Z", {
    sent: 50,
    delivered: 48,
    replies: 6,
    optedOut: 2,
    clicks: 3,
    costE4: 5_003,
  }),
  snap("A", "2026-11-02T10:00:01.000Z", { sent: 60, delivered: 58, replies: 7, costE4: 6_003 }),
  // B: created and sent in October, in another organization.
  snap(
    "B",
    "2026-10-20T08:00:00.000Z",
    { sent: 30, delivered: 29, replies: 3, costE4: 3_333 },
    {
      organization_id: "org-2",
      organization_name: "Baker County Democrats",
      created_at: "2026-10-20T07:00:00.000Z",
    },
  ),
  // C: no change in October.
  snap("C", "2026-09-01T00:00:00.000Z", { sent: 5 }),
];

const FILES: FileProject[] = [
  { id: "A", address: "gotv.adams", template: "gotv", language: "en", labels: { county: "Adams" } },
  { id: "B", address: "gotv.baker", template: "gotv", language: "es", labels: {} },
];

const report = (by: GroupBy, files: FileProject[] | null = null, all = false) =>
  buildResultsReport({
    snapshots: SNAPSHOTS,
    period: OCTOBER,
    by,
    selection: { files, all },
    store: "results",
  });

describe("the period", () => {
  it("a month, a year, a cycle, and the buckets that cover it", () => {
    expect(OCTOBER).toMatchObject({ since: "2026-10-01", until: "2026-10-31", every: "day" });
    expect(OCTOBER.buckets).toHaveLength(31);
    expect(periodOf({ cycle: "2026" }, null, "x")).toMatchObject({
      since: "2025-01-01",
      until: "2026-12-31",
      every: "month",
    });
    expect(periodOf({ year: "2026" }, null, "x")).toMatchObject({
      since: "2026-01-01",
      until: "2026-12-31",
      every: "week",
    });
    expect(periodOf({}, { first: "2026-09-01", last: "2026-11-02" }, "x")).toMatchObject({
      since: "2026-09-01",
      until: "2026-11-02",
    });
    // Weeks run Monday to Sunday, cut to the period: 2026-10-01 is a Thursday.
    const weeks = bucketsOf(Date.parse("2026-10-01T00:00:00Z"), Date.parse("2026-10-20T00:00:00Z"), "week");
    expect(weeks.map((b) => `${b.start}..${b.end}`)).toEqual([
      "2026-10-01..2026-10-04",
      "2026-10-05..2026-10-11",
      "2026-10-12..2026-10-18",
      "2026-10-19..2026-10-19",
    ]);
  });

  it("refuses flags that disagree or are malformed", () => {
    expect(periodProblems({ month: "2026-10", year: "2026" })).toEqual([
      "--month and --year disagree: give one period",
    ]);
    expect(periodProblems({ cycle: "2025" })[0]).toContain("not an even year");
    expect(periodProblems({ since: "2026-10-05", until: "2026-10-01" })[0]).toContain("is after --until");
    expect(periodProblems({ since: "2026-02-30" })[0]).toContain("is not a day");
    expect(periodProblems({ every: "hour" })[0]).toContain("--every hour is not one of day, week, month");
  });
});

describe("what a period counts", () => {
  it("what happened in the period: the last snapshot before its end less the last before its start", () => {
    const r = report({ kind: "organization" });
    expect(r.groups.map((g) => [g.label, g.figures.sent, g.figures.replies, g.figures.costE4])).toEqual([
      ["Adams County Democrats", 40, 5, 4_002],
      ["Baker County Democrats", 30, 3, 3_333],
    ]);
    expect(r.total.figures).toMatchObject({ sent: 70, delivered: 67, optedOut: 2, clicks: 3, costE4: 7_335 });
    expect(r.total.projects).toBe(2); // C did not change in October
    // The buckets add up to the period.
    const summed = r.total.trend.reduce((a, f) => a + f.sent, 0);
    expect(summed).toBe(70);
    expect(r.total.trend[14]?.sent).toBe(40);
    expect(r.total.trend[19]?.sent).toBe(30);
    expect(r.diagnostics).toEqual([]);
  });

  it("rates come from sums, money stays exact", () => {
    const { rates } = report({ kind: "organization" }).total;
    expect(rates.reply).toEqual({ numerator: 8, denominator: 67 });
    expect(rates.costPerReplyE4).toEqual({ numerator: 7_335, denominator: 8 });
    expect(rates.delivery).toEqual({ numerator: 67, denominator: 70 });
  });

  it("a project created before the period and first recorded in it is counted whole, with a warning", () => {
    const late = [
      snap("D", "2026-10-03T00:00:00.000Z", { sent: 12 }, { created_at: "2026-09-20T00:00:00.000Z" }),
    ];
    const r = buildResultsReport({
      snapshots: late,
      period: OCTOBER,
      by: { kind: "project" },
      selection: { files: null, all: false },
      store: "results",
    });
    expect(r.total.figures.sent).toBe(12);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["results.before-period-included"]);
  });

  it("an experiment's arm: the figures of a set of projects", () => {
    const arm = armFigures(SNAPSHOTS, ["A", "B", "nope"], OCTOBER.startMs, OCTOBER.endMs);
    expect(arm.projects).toBe(2);
    expect(arm.figures.replies).toBe(8);
    expect(arm.rates.reply).toEqual({ numerator: 8, denominator: 67 });
  });
});

describe("groups through the campaign files", () => {
  it("by template, language and label; projects the files do not describe with --all", () => {
    const label = (by: GroupBy, all = false) =>
      report(by, FILES, all).groups.map((g) => [g.label, g.figures.sent]);
    expect(label({ kind: "template" })).toEqual([["gotv", 70]]);
    expect(label({ kind: "language" })).toEqual([
      ["en", 40],
      ["es", 30],
    ]);
    expect(label({ kind: "label", labelKey: "county" })).toEqual([
      ["Adams", 40],
      ["(no county label)", 30],
    ]);
    expect(label({ kind: "project" })).toEqual([
      ["gotv.adams", 40],
      ["gotv.baker", 30],
    ]);
    const files = [FILES[0] as FileProject];
    expect(report({ kind: "template" }, files, true).groups.map((g) => g.label)).toEqual([
      "gotv",
      "(not in the files)",
    ]);
    expect(report({ kind: "template" }, files, false).groups.map((g) => g.label)).toEqual(["gotv"]);
  });

  it("a project of the files never recorded is a warning", () => {
    const r = report({ kind: "project" }, [...FILES, { id: "Z", address: "gotv.zed", labels: {} }]);
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["results.not-recorded", "1 project of the campaign files has no snapshot up to 2026-10-31 (gotv.zed)"],
    ]);
  });
});

describe("the views", () => {
  const awkward = buildResultsReport({
    snapshots: [
      snap(
        "E",
        "2026-10-05T00:00:00.000Z",
        { sent: 3, replies: 1 },
        { organization_name: '=HYPERLINK("x"), | @team', created_at: "2026-10-05T00:00:00.000Z" },
      ),
    ],
    period: OCTOBER,
    by: { kind: "organization" },
    selection: { files: null, all: false },
    store: "results",
  });

  it("JSON follows its schema, with exact money and rounded rates", () => {
    const document = JSON.parse(renderResultsJson(report({ kind: "organization" })));
    expect(schemaErrors("results-result", document)).toEqual([]);
    expect(document.total).toMatchObject({
      sent: 70,
      cost: "0.7335",
      reply_rate: 0.1194,
      cost_per_reply: "0.0917",
    });
    expect(document.total.trend).toHaveLength(31);
  });

  it("CSV defuses formulas and quotes separators", () => {
    const csv = renderResultsCsv(awkward);
    const [header, first] = csv.split("\r\n");
    expect(header?.startsWith("level,group_key,group,from,to,projects,sent")).toBe(true);
    expect(first).toBe(
      `group,org-1,"'=HYPERLINK(""x""), | @team",2026-10-01,2026-10-31,1,3,3,0,0,1,0,0,0.0300,1,0.3333,0,0,0.0300`,
    );
    expect(csv.endsWith("\r\n")).toBe(true);
  });

  it("Markdown escapes names, the terminal shows the sparkline", () => {
    const md = renderResultsMarkdown(awkward);
    expect(md).toContain("## Campaign results");
    expect(md).toContain("\\|");
    expect(md).not.toMatch(/[^`]@team/);
    const table = renderResultsTable(report({ kind: "organization" }));
    expect(table).toContain("Results 2026-10-01 to 2026-10-31 (UTC days), trend by day, by organization");
    expect(table).toMatch(/Adams County Democrats +1 +40 /);
    expect(table).toContain("··············█····");
  });
});

describe("snapshots", () => {
  it("the identity is project and hour; a later snapshot equal to the last is not written", () => {
    const a = snap("A", "2026-10-15T10:05:00.000Z", { sent: 5 });
    const sameHour = snap("A", "2026-10-15T10:55:00.000Z", { sent: 9 });
    const unchanged = snap("A", "2026-10-15T11:05:00.000Z", { sent: 5 });
    expect(chooseWrites([a, sameHour, unchanged], { keys: new Set(), latest: new Map() })).toEqual({
      write: [a],
      sameHour: 1,
      unchanged: 1,
    });
  });

  it("organization directories", () => {
    expect(organizationDirectory("St. Mary's Parish Dems", "x")).toBe("st-mary-s-parish-dems");
    expect(organizationDirectory("Peña County", "x")).toBe("pena-county");
    expect(organizationDirectory("!!!", "0E-1")).toBe("0e-1");
  });
});
