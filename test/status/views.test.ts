/**
 * The views of a status report: the terminal table at 80 and 160 columns (which columns go, in
 * which order, nothing wider than the terminal), the JSON document against its schema, CSV read
 * back as RFC 4180, and Markdown whose user text cannot break the table.
 */
import { describe, expect, test } from "vitest";
import { displayWidth, percentCell, truncate, visibleText } from "../../src/report/status-cells.js";
import { renderStatusCsv, STATUS_CSV_HEADER } from "../../src/report/status-csv.js";
import { renderStatusJson } from "../../src/report/status-json.js";
import { renderStatusMarkdown } from "../../src/report/status-markdown.js";
import { renderStatusTable } from "../../src/report/status-table.js";
import { documentOf } from "../helpers/schemas.js";
import { parseCsv } from "./csv.js";
import { detail, type Entry, ORG_B, pid, reportOf, row } from "./fixtures.js";

const sending = (n: number, sent: number, over = {}) =>
  row(n, {
    total_recipients: sent + 2,
    messages_sent: sent,
    messages_delivered: sent - 3,
    messages_failed: 3,
    messages_opted_out: 1,
    replies_received: 4,
    total_url_clicks: 12,
    unique_url_clicks: 9,
    actual_cost: `${Math.floor(sent / 100)}.${String(sent % 100).padStart(2, "0")}00`,
    ...over,
  });

/** Two organizations, a long name, a project read by id, one unreadable, one that sent nothing. */
const ENTRIES: readonly Entry[] = [
  {
    address: "gotv-reminder",
    row: sending(1, 12_345),
    detail: { kind: "found", value: detail(1, { estimated_cost_cents: 12_400 }) },
  },
  {
    address: "a-very-long-project-address-for-the-early-vote-push-in-ward-three",
    row: sending(2, 980),
    detail: { kind: "found", value: detail(2, { estimated_cost_cents: 990 }) },
  },
  { address: "drafted", row: row(3, { status: "draft", total_recipients: 50 }) },
  {
    address: "youth-rally",
    row: sending(4, 400, { organization_id: ORG_B, organization_name: "Beta Youth" }),
  },
  {
    address: "last-year",
    detail: { kind: "found", value: detail(5, { total_recipients: 77, estimated_cost_cents: 80 }) },
  },
  { address: "gone", id: pid(6), detail: { kind: "not-found" } },
];

const report = reportOf(ENTRIES);

describe("the terminal table", () => {
  test("at 160 columns: every column, nothing wider, the total rows", () => {
    const text = renderStatusTable(report, { width: 160 });
    const lines = text.split("\n");
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(160);
    expect(lines[0]).toMatch(
      /^PROJECT +STATUS +RECIPIENTS +SENT +DELIVERED +FAILED +OPT-OUTS +REPLIES +CLICKS +DELIVERY +FAILURE +OPT-OUT +COST +ESTIMATE +\$\/DELIVERED$/,
    );
    expect(text).not.toContain("Hidden to fit");
    expect(lines.find((l) => l.startsWith("gotv-reminder"))).toMatch(
      /^gotv-reminder +completed +12,347 +12,345 +12,342 +3 +1 +4 +12 +100\.0% +0\.0% +0\.0% +\$123\.45 +\$124\.00 +\$0\.0100$/,
    );
    expect(lines.find((l) => l.startsWith("drafted"))).toMatch(/ 0 +0 +0 +0 +0 +0 +- +- +- +\$0\.00 +\? +-$/);
    expect(lines.find((l) => l.startsWith("last-year"))).toMatch(
      /^last-year +completed +77 +\? +\? .* \$0\.80 +\?$/,
    );
    expect(lines.find((l) => l.startsWith("gone"))).toMatch(/^gone +\? +\?/);
    expect(lines).toContain("Alpha Democrats");
    expect(lines).toContain("Beta Youth");
    expect(lines).toContain("(projects that could not be read)");
    expect(lines.some((l) => /^ {2}total, 4 projects +13,456 +13,325 /.test(l))).toBe(true);
    expect(lines.filter((l) => l.includes("total, 1 project"))).toHaveLength(1); // none for the unreadable
    expect(lines.some((l) => /^TOTAL, 6 projects, 2 organizations +/.test(l))).toBe(true);
    expect(text).toContain(
      "The totals leave out the counters of 2 projects without statistics in the range.",
    );
    expect(text).toContain("Marks: ? unknown; - no rate (nothing sent or delivered).");
  });

  test("at 80 columns: the optional columns go first, the long name is cut, a note says what is hidden", () => {
    const text = renderStatusTable(report, { width: 80 });
    const lines = text.split("\n");
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^PROJECT +STATUS +SENT +DELIVERY +FAILURE +OPT-OUT +COST$/);
    expect(lines.find((l) => l.startsWith("a-very-long"))).toMatch(/^a-very-long-project… {2}completed/);
    expect(text.replace(/\n/g, " ")).toContain(
      "Hidden to fit the terminal: RECIPIENTS, DELIVERED, FAILED, OPT-OUTS, REPLIES, CLICKS, ESTIMATE, $/DELIVERED",
    );
  });

  test.each([
    [200, 15],
    [160, 15],
    [140, 13],
    [120, 11],
    [100, 9],
    [80, 7],
    [60, 6],
    [40, 3],
    [20, 1],
  ])("at %i columns %i columns are shown, and no line is wider", (width, shown) => {
    const text = renderStatusTable(report, { width });
    const header = text.split("\n")[0] ?? "";
    expect(header.split(/ {2,}/).length).toBe(shown);
    for (const line of text.split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(width);
  });

  test("without a width (not a terminal) every column and the whole name", () => {
    const text = renderStatusTable(report, { width: null });
    expect(text).toContain("a-very-long-project-address-for-the-early-vote-push-in-ward-three");
    expect(text.split("\n")[0]).toContain("$/DELIVERED");
  });

  test("names cannot drive the terminal; wide characters count double", () => {
    expect(visibleText("evil\u001b[2Jname\u0007")).toBe("evil\uFFFD[2Jname\uFFFD");
    expect(displayWidth("投票日")).toBe(6);
    expect(displayWidth("vote 🗳️")).toBe(7);
    expect(truncate("投票日のお知らせ", 7)).toBe("投票日…");
    const named = reportOf([{ row: row(1, { name: "Bad\u001b]0;pwned\u0007 name" }) }]);
    const table = renderStatusTable(named, { width: 120 });
    expect(table.includes("\u001b") || table.includes("\u0007")).toBe(false);
    expect(table).toContain("Bad\uFFFD]0;pwned\uFFFD name");
  });

  test("percentages round half up from the exact rate", () => {
    expect(percentCell({ numerator: 1, denominator: 8 }, true)).toBe("12.5%");
    expect(percentCell({ numerator: 1, denominator: 2_000 }, true)).toBe("0.1%");
    expect(percentCell({ numerator: 1, denominator: 2_001 }, true)).toBe("0.0%");
    expect(percentCell(null, true)).toBe("-");
    expect(percentCell(null, false)).toBe("?");
  });

  test("nothing selected", () => {
    expect(renderStatusTable(reportOf([]), { width: 80 })).toMatch(/^No project selected\.\n/);
  });
});

describe("JSON", () => {
  test("is valid against schemas/status-result.schema.json, unknowns as null, money exact", () => {
    const doc = documentOf("status-result", renderStatusJson(report)) as Record<string, never>;
    const projects = doc.projects as unknown as Record<string, unknown>[];
    expect(projects.map((p) => p.source)).toEqual([
      "statistics",
      "statistics",
      "statistics",
      "statistics",
      "detail",
      "unreadable",
    ]);
    expect(projects[0]).toMatchObject({
      actual_cost: "123.4500",
      estimated_cost: "124.0000",
      delivery_rate: 0.9998,
      cost_per_delivered: "0.0100",
    });
    expect(projects[4]).toMatchObject({
      sent: null,
      actual_cost: null,
      delivery_rate: null,
      estimated_cost: "0.8000",
    });
    expect(doc.totals).toMatchObject({
      projects: 6,
      projects_without_statistics: 2,
      projects_without_estimate: 3,
    });
    expect(documentOf("status-result", renderStatusJson(reportOf([], false)))).toMatchObject({
      projects: [],
      totals: { projects: 0, actual_cost: "0.0000", estimated_cost: null, delivery_rate: null },
    });
  });
});

describe("CSV", () => {
  test("reads back as RFC 4180: a header, one row per project, organization and total, text intact", () => {
    const awkward = reportOf([
      { address: "quotes", row: sending(1, 100, { name: 'Town hall, "Q&A" night' }) },
      { address: "lines", row: sending(2, 100, { name: "Line one\r\nline two" }) },
      { address: "formula", row: sending(3, 100, { name: "=1+2", organization_name: "@org" }) },
      { address: "gone", id: pid(4), detail: { kind: "not-found" } },
    ]);
    const text = renderStatusCsv(awkward);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...STATUS_CSV_HEADER]);
    expect(rows.map((r) => r[0])).toEqual([
      "project",
      "project",
      "project",
      "project",
      "organization",
      "organization",
      "total",
    ]);
    const col = (name: (typeof STATUS_CSV_HEADER)[number]) => STATUS_CSV_HEADER.indexOf(name);
    expect(rows.map((r) => r[col("name")])).toEqual([
      'Town hall, "Q&A" night',
      "Line one\r\nline two",
      "'=1+2",
      "",
      "",
      "",
      "",
    ]);
    expect(rows[2]?.[col("organization")]).toBe("'@org");
    expect(rows[3]?.slice(col("sent"), col("sent") + 3)).toEqual(["", "", ""]); // unknown: empty
    const total = rows.at(-1) ?? [];
    expect(total[col("projects")]).toBe("4");
    expect(total[col("projects_without_statistics")]).toBe("1");
    expect(total[col("actual_cost")]).toBe("3.0000");
    expect(total[col("delivery_rate")]).toBe("0.9700");
    expect(text).toContain('"Town hall, ""Q&A"" night"');
  });

  test("an id the API gives that a spreadsheet would run as a formula is defused as a name is", () => {
    const injected = reportOf([
      {
        address: "odd",
        row: sending(1, 100, { organization_id: '=HYPERLINK("x")', organization_name: "Org" }),
      },
    ]);
    const [header, ...rows] = parseCsv(renderStatusCsv(injected));
    const col = (name: (typeof STATUS_CSV_HEADER)[number]) => (header ?? []).indexOf(name);
    expect(rows.map((r) => r[col("organization_id")]).filter((v) => v !== "")).toEqual([
      `'=HYPERLINK("x")`,
      `'=HYPERLINK("x")`,
    ]);
  });
});

describe("Markdown", () => {
  test("one table per organization and the overall total; user text escaped", () => {
    const named = reportOf([
      { address: "pipes", row: sending(1, 10, { name: "a | b" }) },
      { row: sending(2, 10, { name: "Ping @everyone about #12 <b>now</b>" }) },
      { row: sending(3, 10, { organization_id: ORG_B, organization_name: "Beta *Youth*" }) },
    ]);
    const md = renderStatusMarkdown(named);
    expect(md).toContain("### Alpha Democrats");
    expect(md).toContain("### Beta \\*Youth\\*");
    expect(md).toContain("### All organizations");
    expect(md).toContain("| `pipes` |");
    expect(md).toContain("Ping @&#8203;everyone about #&#8203;12 &lt;b&gt;now&lt;/b&gt;");
    for (const line of md.split("\n").filter((l) => l.startsWith("|")))
      expect(line.split(/(?<!\\)\|/).length).toBe(17);
  });
});
