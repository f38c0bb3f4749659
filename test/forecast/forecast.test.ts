/** The forecast core, pure and table-driven: timelines under a cap, live projects, windows, costs. */
import { describe, expect, it } from "vitest";
import { DEFAULT_CAPACITY, type ForecastProject, forecast } from "../../src/forecast/index.js";
import { outsideWindow } from "../../src/forecast/local-hours.js";
import { SEND_WINDOW_BOUNDARIES, TCPA_BOUNDARIES } from "../fixtures/send-window-boundaries.js";

const NOW = Date.parse("2026-11-03T16:00:00Z"); // 08:00 PST
const MIN = 60_000;
const capacity = { ...DEFAULT_CAPACITY, brands: { B: 100 }, throughput: { "10dlc": 10, "toll-free": 20 } };

const project = (over: Partial<ForecastProject> & { address: string }): ForecastProject => ({
  organization: "Org",
  brand: "B",
  channel: "10dlc",
  recipients: 50,
  segmentsPerMessage: 1,
  startMs: NOW,
  timezone: "America/Los_Angeles",
  dailyCapBypass: false,
  ...over,
});

/** [name, projects, expected per project: finish minutes after NOW or `pause@minutes/left`, over cap] */
const CASES: readonly [string, readonly ForecastProject[], readonly string[]][] = [
  ["under the cap", [project({ address: "a" })], ["a finish@5 over=0"]],
  ["two segments halve the rate", [project({ address: "a", segmentsPerMessage: 2 })], ["a finish@10 over=0"]],
  ["toll-free throughput", [project({ address: "a", channel: "toll-free" })], ["a finish@2.5 over=0"]],
  ["pauses at the cap", [project({ address: "a", recipients: 150 })], ["a pause@10/50 over=0"]],
  [
    "two projects share the cap in the order they send",
    [
      project({ address: "a", recipients: 80 }),
      project({ address: "b", recipients: 80, startMs: NOW + 5 * MIN }),
    ],
    ["a pause@7.5/5 over=0", "b pause@7.5/55 over=0"],
  ],
  [
    "a bypass project's messages count, and it goes on past the cap",
    [
      project({ address: "a", recipients: 150, dailyCapBypass: true }),
      project({ address: "b", startMs: NOW + 11 * MIN }),
    ],
    ["a finish@15 over=50", "b pause@11/50 over=0"],
  ],
  [
    "a live project's messages of today count against the cap",
    [project({ address: "a", recipients: 200, sent: 120, sentToday: 90 })],
    ["a pause@1/70 over=0"],
  ],
  [
    "no brand: no cap",
    [project({ address: "a", brand: undefined, recipients: 150 })],
    ["a finish@15 over=0"],
  ],
  [
    "a brand without a declared cap takes the default",
    [project({ address: "a", brand: "other", recipients: 150 })],
    ["a finish@15 over=0"],
  ],
  [
    "a schedule in the past starts at the clock",
    [project({ address: "a", startMs: NOW - 60 * MIN })],
    ["a finish@5 over=0"],
  ],
];

describe("forecast timelines", () => {
  it.each(CASES)("%s", (_name, projects, expected) => {
    const f = forecast({ projects, capacity, nowMs: NOW });
    expect(
      f.projects.map((p) =>
        p.pause === null
          ? `${p.address} finish@${((p.finishMs as number) - NOW) / MIN} over=${p.overCap}`
          : `${p.address} pause@${(p.pause.atMs - NOW) / MIN}/${p.pause.recipientsLeft} over=${p.overCap}`,
      ),
    ).toEqual(expected);
    for (const p of f.projects) expect(p.sent + (p.pause?.recipientsLeft ?? 0)).toBe(p.recipients);
  });

  it("shares per Pacific day, and the restart is the next Pacific midnight", () => {
    const f = forecast({ projects: [project({ address: "a", recipients: 150 })], capacity, nowMs: NOW });
    expect(f.brandDays.map((d) => [d.pacificDay, d.total, d.dailyCap])).toEqual([["2026-11-03", 100, 100]]);
    expect(f.projects[0]?.pause).toMatchObject({
      pacificDay: "2026-11-03",
      restartFromMs: Date.parse("2026-11-04T08:00:00Z"),
    });
    expect(f.diagnostics.map((d) => d.code)).toEqual(["forecast.cap-pause"]);
    expect(f.diagnostics[0]?.hint).toContain("daily_cap_bypass");
  });

  it("costs: pro rata of the messages out, per organization and in total; unknown stays unknown", () => {
    const f = forecast({
      projects: [
        project({ address: "a", recipients: 150, estimatedCostCents: 300 }),
        project({ address: "b", brand: "C", organization: "Other", estimatedCostCents: 100 }),
        project({ address: "c", brand: "C", organization: "Other" }),
      ],
      capacity,
      nowMs: NOW,
    });
    expect(f.projects.map((p) => p.projectedCostCents)).toEqual([200, 100, null]);
    expect(f.costs).toEqual({
      organizations: [
        { organization: "Org", estimatedCostCents: 300, projectedCostCents: 200 },
        { organization: "Other", estimatedCostCents: null, projectedCostCents: null },
      ],
      total: { estimatedCostCents: null, projectedCostCents: null },
    });
  });

  it("a deadline: met, missed (with the fix)", () => {
    const f = forecast({
      projects: [
        project({ address: "a", deadlineMs: NOW + 10 * MIN }),
        project({ address: "b", brand: "C", deadlineMs: NOW + 2 * MIN }),
      ],
      capacity,
      nowMs: NOW,
    });
    expect(f.projects.map((p) => p.meetsDeadline)).toEqual([true, false]);
    const [d] = f.diagnostics;
    expect(d?.code).toBe("forecast.past-deadline");
    expect(d?.hint).toContain("start earlier");
  });
});

describe("time outside the send window", () => {
  const W = { from: "08:00", to: "21:00" };
  const t = (iso: string) => Date.parse(iso);
  it.each([
    ["inside", "2026-11-03T17:00:00Z", "2026-11-03T18:00:00Z", null],
    ["across 21:00 PST", "2026-11-04T04:30:00Z", "2026-11-04T05:30:00Z", ["2026-11-04T05:00:00.000Z", 30]],
    ["before 08:00", "2026-11-03T15:00:00Z", "2026-11-03T16:30:00Z", ["2026-11-03T15:00:00.000Z", 60]],
    ["overnight", "2026-11-04T04:00:00Z", "2026-11-04T17:00:00Z", ["2026-11-04T05:00:00.000Z", 660]],
    // 2026-11-01: 01:00-02:00 happens twice; 21:00 PST is 05:00Z the next day.
    ["a fall-back day", "2026-11-02T04:00:00Z", "2026-11-02T06:00:00Z", ["2026-11-02T05:00:00.000Z", 60]],
    ["one instant outside", "2026-11-03T14:00:00Z", "2026-11-03T14:00:00Z", ["2026-11-03T14:00:00.000Z", 0]],
  ] as const)("%s", (_name, from, to, expected) => {
    const r = outsideWindow(t(from), t(to), "America/Los_Angeles", W);
    expect(r === null ? null : [new Date(r.fromMs).toISOString(), r.ms / MIN]).toEqual(expected);
  });
});

describe("quiet hours at the send window's boundaries (the shared table)", () => {
  it.each(SEND_WINDOW_BOUNDARIES)("one window alone: $name", (row) => {
    const at = Date.parse(row.at);
    expect(outsideWindow(at, at, row.zone, row.window)).toEqual(row.inside ? null : { fromMs: at, ms: 0 });
  });

  // The forecast judges the one send window, with the federal hours always in it: the table of
  // test/fixtures/send-rules-boundaries.ts (test/jurisdictions) covers policy windows past midnight.
  it.each(TCPA_BOUNDARIES)("$name", (row) => {
    const at = Date.parse(row.at);
    // A send of one recipient (a tenth of a second) starting at the row's instant.
    const f = forecast({
      projects: [project({ address: "edge", recipients: 1, startMs: at, timezone: row.zone })],
      capacity: { ...capacity, throughput: { "10dlc": 600, "toll-free": 600 } },
      nowMs: at - 86_400_000,
      sendWindow: row.window,
    });
    const p = f.projects[0];
    expect(p?.quietHours?.fromMs ?? null).toBe(row.inside ? null : at);
    expect(f.diagnostics.some((d) => d.code === "forecast.quiet-hours")).toBe(!row.inside);
  });
});
