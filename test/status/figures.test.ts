/**
 * The pure core of status: money in integer ten-thousandths, rates as fractions rounded only when
 * shown, each project's figures from its row or detail, totals whose rates are recomputed from the
 * sums (never averaged), and the range split into the contract's windows.
 */
import { describe, expect, test } from "vitest";
import { e4ToDecimal, parseCostE4 } from "../../src/status/money.js";
import { statusRange } from "../../src/status/range.js";
import { totalsOf } from "../../src/status/totals.js";
import { type Fraction, fraction, rounded, roundedQuotient, scaled } from "../../src/text/fraction.js";
import { detail, NOW, ORG_A, ORG_B, pid, reportOf, row } from "./fixtures.js";

describe("money", () => {
  test.each([
    ["12.3400", 123_400],
    ["0.0001", 1],
    ["0.5", 5_000],
    ["12", 120_000],
    [" 3.25 ", 32_500],
    ["1234567.8901", 12_345_678_901],
  ])("actual_cost %j is %i ten-thousandths", (text, e4) => {
    expect(parseCostE4(text)).toBe(e4);
    expect(parseCostE4(e4ToDecimal(e4))).toBe(e4);
  });

  test.each(["", "-1.0000", "1.23456", "1,00", "abc", "1e3", ".5", "99999999999999999.0000"])(
    "actual_cost %j is refused",
    (text) => {
      expect(parseCostE4(text)).toBeUndefined();
    },
  );

  test.each([
    [0, "0.0000"],
    [1, "0.0001"],
    [10_000, "1.0000"],
    [123_456, "12.3456"],
  ])("%i ten-thousandths print as %s", (e4, text) => {
    expect(e4ToDecimal(e4)).toBe(text);
  });

  test.each([
    [5, 2, 3], // 2.5 rounds up
    [7, 2, 4], // 3.5 rounds up
    [1, 3, 0],
    [2, 3, 1],
    [10, 5, 2],
    [0, 7, 0],
    [-5, 2, -3], // halves away from zero
  ])("%i / %i rounds to %i", (n, d, q) => {
    expect(roundedQuotient(n, d)).toBe(q);
  });

  test("0.1 + 0.2 is exactly 0.3 in ten-thousandths (no float drift in a sum)", () => {
    const costs = ["0.1000", "0.2000"].map((c) => parseCostE4(c) ?? 0);
    expect(e4ToDecimal(costs.reduce((a, b) => a + b, 0))).toBe("0.3000");
  });
});

describe("rates", () => {
  test.each([
    [37, 38, 4, 0.9737],
    [1, 3, 4, 0.3333],
    [2, 3, 4, 0.6667],
    [1, 8, 4, 0.125],
    [1, 20_000, 4, 0.0001], // 0.00005 rounds half up
    [0, 5, 4, 0],
    [5, 5, 4, 1],
  ])("%i / %i at %i places is %d", (n, d, places, value) => {
    expect(rounded(fraction(n, d) as Fraction, places)).toBe(value);
  });

  test("a percentage with one decimal rounds the exact fraction, not the rounded one", () => {
    // 0.99949... is 99.9 %; rounding 0.9995 (4 places) first would give 100.0 %.
    expect(scaled({ numerator: 19_989, denominator: 19_999 }, 3)).toBe(999);
  });

  test.each([
    [0, 0],
    [5, 0],
    [null, 5],
    [5, null],
  ])("%j / %j is no rate", (n, d) => {
    expect(fraction(n, d)).toBeNull();
  });
});

describe("project figures", () => {
  test("from a statistics row: every counter, the rates, the estimate from the detail", () => {
    const report = reportOf([
      {
        address: "gotv",
        row: row(1, {
          total_recipients: 40,
          messages_sent: 38,
          messages_delivered: 37,
          messages_failed: 1,
          messages_opted_out: 2,
          replies_received: 5,
          total_url_clicks: 3,
          unique_url_clicks: 2,
          actual_cost: "0.3800",
        }),
        detail: { kind: "found", value: detail(1, { estimated_cost_cents: 40 }) },
      },
    ]);
    const [p] = report.projects;
    expect(p).toMatchObject({
      address: "gotv",
      source: "statistics",
      status: "completed",
      organizationName: "Alpha Democrats",
      recipients: 40,
      sent: 38,
      delivered: 37,
      failed: 1,
      optedOut: 2,
      replies: 5,
      clicks: 3,
      uniqueClicks: 2,
      actualCostE4: 3_800,
      estimatedCostE4: 4_000,
      rates: {
        delivery: { numerator: 37, denominator: 38 },
        failure: { numerator: 1, denominator: 38 },
        optOut: { numerator: 2, denominator: 37 },
        costPerDeliveredE4: { numerator: 3_800, denominator: 37 },
      },
    });
  });

  test("from a detail only: status, recipients and estimate; counters unknown, never 0", () => {
    const [p] = reportOf([
      {
        detail: {
          kind: "found",
          value: detail(2, { organization_id: ORG_B, total_recipients: 9, estimated_cost_cents: 12 }),
        },
      },
    ]).projects;
    expect(p).toMatchObject({
      source: "detail",
      organizationName: "Beta Youth",
      recipients: 9,
      estimatedCostE4: 1_200,
      sent: null,
      delivered: null,
      actualCostE4: null,
      rates: { delivery: null, failure: null, optOut: null, costPerDeliveredE4: null },
    });
  });

  test("unreadable: only the id", () => {
    const [p] = reportOf([{ id: pid(3), detail: { kind: "not-found" } }]).projects;
    expect(p).toMatchObject({
      id: pid(3),
      source: "unreadable",
      status: null,
      organizationId: null,
      recipients: null,
    });
  });

  test("a row's cost that is not a 4-decimal amount is unknown, with a warning", () => {
    const report = reportOf([
      { row: row(4, { actual_cost: "12.34567", messages_sent: 1, messages_delivered: 1 }) },
    ]);
    expect(report.projects[0]?.actualCostE4).toBeNull();
    expect(report.projects[0]?.rates.costPerDeliveredE4).toBeNull();
    expect(report.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["warning", "status.cost-unreadable"],
    ]);
  });
});

describe("totals", () => {
  test("rates are recomputed from the sums, never averaged", () => {
    const report = reportOf([
      { row: row(1, { messages_sent: 1, messages_delivered: 1 }) },
      { row: row(2, { messages_sent: 99, messages_delivered: 0, messages_failed: 99 }) },
    ]);
    // The average of 100 % and 0 % would be 50 %; one delivered of 100 sent is 1 %.
    expect(report.totals.rates.delivery).toEqual({ numerator: 1, denominator: 100 });
    expect(report.totals.rates.failure).toEqual({ numerator: 99, denominator: 100 });
  });

  test("zero denominators: nothing sent or delivered has no rate, in projects and totals", () => {
    const report = reportOf([{ row: row(1) }, { row: row(2, { messages_sent: 3, messages_failed: 3 }) }]);
    expect(report.projects[0]?.rates).toEqual({
      delivery: null,
      failure: null,
      optOut: null,
      costPerDeliveredE4: null,
    });
    expect(report.totals.rates).toEqual({
      delivery: { numerator: 0, denominator: 3 },
      failure: { numerator: 3, denominator: 3 },
      optOut: null,
      costPerDeliveredE4: null,
    });
    expect(totalsOf([]).rates).toEqual({
      delivery: null,
      failure: null,
      optOut: null,
      costPerDeliveredE4: null,
    });
  });

  test("money sums exactly; a project without statistics is counted apart, not as zeros", () => {
    const report = reportOf([
      { row: row(1, { actual_cost: "0.0001", messages_sent: 1, messages_delivered: 1 }) },
      { row: row(2, { actual_cost: "0.0002", messages_sent: 2, messages_delivered: 2 }) },
      { detail: { kind: "found", value: detail(3, { total_recipients: 7, estimated_cost_cents: 5 }) } },
      { id: pid(4), detail: { kind: "error", code: "INTERNAL_ERROR", message: "boom" } },
    ]);
    expect(report.totals).toMatchObject({
      projects: 4,
      withoutStatistics: 2,
      withoutActualCost: 2,
      withoutEstimate: 3,
      recipients: 7,
      sent: 3,
      actualCostE4: 3,
      estimatedCostE4: 500,
      rates: { costPerDeliveredE4: { numerator: 3, denominator: 3 } },
    });
  });

  test("the cost per delivered message counts only the projects whose cost is known", () => {
    const report = reportOf([
      { row: row(1, { actual_cost: "1.0000", messages_sent: 10, messages_delivered: 10 }) },
      { row: row(2, { actual_cost: "bad", messages_sent: 90, messages_delivered: 90 }) },
    ]);
    expect(report.totals.rates.costPerDeliveredE4).toEqual({ numerator: 10_000, denominator: 10 });
    expect(report.totals.rates.delivery).toEqual({ numerator: 100, denominator: 100 });
  });

  test("per organization, by name, the unreadable last; the overall total is their sum", () => {
    const report = reportOf([
      { row: row(1, { organization_id: ORG_B, organization_name: "Beta Youth", messages_sent: 4 }) },
      { id: pid(9), detail: { kind: "not-found" } },
      { row: row(2, { messages_sent: 6 }) },
      { row: row(3, { organization_id: ORG_B, organization_name: "Beta Youth", messages_sent: 5 }) },
    ]);
    expect(
      report.organizations.map((g) => [g.organizationName, g.projects.map((p) => p.id), g.totals.sent]),
    ).toEqual([
      ["Alpha Democrats", [pid(2)], 6],
      ["Beta Youth", [pid(1), pid(3)], 9],
      [null, [pid(9)], 0],
    ]);
    expect(report.totals.sent).toBe(15);
    expect(report.totals.projects).toBe(4);
  });

  test("with --no-estimate no estimate is known, and the total says so", () => {
    const report = reportOf([{ row: row(1) }, { row: row(2) }], false);
    expect(report.estimates).toBe(false);
    expect(report.totals).toMatchObject({ estimatedCostE4: null, withoutEstimate: 2 });
  });
});

describe("the range", () => {
  const start = (since?: string) => statusRange(NOW, since);

  test("by default: the three windows of the stats refresh, 90 days back", () => {
    expect(start()).toEqual({
      ok: true,
      range: {
        since: "2026-09-03",
        until: "2026-12-01",
        windows: [
          { startDate: "2026-11-01", endDate: "2026-12-01", startMs: Date.parse("2026-11-01T00:00:00Z") },
          { startDate: "2026-10-01", endDate: "2026-10-31", startMs: Date.parse("2026-10-01T00:00:00Z") },
          { startDate: "2026-09-03", endDate: "2026-09-30", startMs: Date.parse("2026-09-03T00:00:00Z") },
        ],
      },
    });
  });

  test.each([
    ["2026-12-01", [["2026-12-01", "2026-12-01"]]],
    ["2026-11-01", [["2026-11-01", "2026-12-01"]]],
    [
      "2026-10-31",
      [
        ["2026-11-01", "2026-12-01"],
        ["2026-10-31", "2026-10-31"],
      ],
    ],
    [
      "2026-10-15",
      [
        ["2026-11-01", "2026-12-01"],
        ["2026-10-15", "2026-10-31"],
      ],
    ],
    [
      "2026-09-03",
      [
        ["2026-11-01", "2026-12-01"],
        ["2026-10-01", "2026-10-31"],
        ["2026-09-03", "2026-09-30"],
      ],
    ],
  ])("--since %s reads windows %j (each at most 31 days, each day once)", (since, windows) => {
    const r = start(since);
    if (!r.ok) throw new Error(r.diagnostic.message);
    expect(r.range.windows.map((w) => [w.startDate, w.endDate])).toEqual(windows);
    for (const w of r.range.windows) {
      expect(w.startMs).toBe(Date.parse(`${w.startDate}T00:00:00Z`));
      expect(Date.parse(w.endDate) - Date.parse(w.startDate)).toBeLessThanOrEqual(30 * 86_400_000);
    }
  });

  test.each([
    ["2026-09-02", "status.range-too-old", "covers the 90 days from 2026-09-03 to today (2026-12-01"],
    ["2025-12-01", "status.range-too-old", "--since 2025-12-01 is older than the statistics reach"],
    ["2026-12-02", "status.range-in-future", "after today (2026-12-01"],
  ])("--since %s is refused: %s", (since, code, words) => {
    const r = start(since);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic).toMatchObject({ severity: "error", code });
    expect(r.diagnostic.message).toContain(words);
    expect(r.diagnostic.hint).toContain("2026-09-03");
  });

  test("the oldest day follows the API's clock across a day boundary", () => {
    const late = statusRange(new Date("2026-12-01T23:59:59.999Z"), undefined);
    const next = statusRange(new Date("2026-12-02T00:00:00.000Z"), undefined);
    expect(late.ok && late.range.since).toBe("2026-09-03");
    expect(next.ok && next.range.since).toBe("2026-09-04");
  });
});

test("organizations are ordered by name whatever the id", () => {
  const report = reportOf([
    { row: row(1, { organization_id: ORG_A, organization_name: "Zeta" }) },
    { row: row(2, { organization_id: ORG_B, organization_name: "Alpha" }) },
  ]);
  expect(report.organizations.map((g) => g.organizationId)).toEqual([ORG_B, ORG_A]);
});
