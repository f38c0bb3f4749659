import { describe, expect, it } from "vitest";
import { dailyCapBypassRule, quietHoursRule, schedulePastRule } from "../../src/campaign/lint/schedule.js";
import type { DesiredState, ScheduleSpec } from "../../src/campaign/model.js";
import { TCPA_BOUNDARIES } from "../fixtures/send-window-boundaries.js";
import { lineOf, projectSpec } from "./project-spec.js";

const now = new Date("2026-10-01T16:00:00Z");

function scheduled(
  at: string,
  options: { state?: DesiredState; bypass?: boolean; timezone?: ScheduleSpec["timezone"] } = {},
) {
  return projectSpec({
    state: options.state ?? "scheduled",
    schedule: {
      at,
      timezone: options.timezone ?? "America/Los_Angeles",
      dailyCapBypass: options.bypass ?? false,
    },
  });
}

describe("schedule in the past", () => {
  const cases: { at: string; state?: DesiredState; flagged: boolean }[] = [
    { at: "2026-10-01T08:59:59-07:00", flagged: true },
    { at: "2026-10-01T09:00:00-07:00", flagged: false },
    { at: "2026-10-01T15:59:59Z", flagged: true },
    { at: "2026-11-03T10:00:00-08:00", flagged: false },
    { at: "now", flagged: false },
    { at: "2026-09-01T10:00:00-07:00", state: "tested", flagged: false },
    { at: "2026-09-01T10:00:00-07:00", state: "paused", flagged: false },
  ];
  it.each(cases)("$at (desired $state): flagged $flagged", ({ at, state, flagged }) => {
    const diagnostics = schedulePastRule(scheduled(at, state ? { state } : {}), { now });
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual(
      flagged ? [["lint.schedule-in-past", "warning", lineOf(["schedule", "at"])]] : [],
    );
  });

  it("names the clock it judged against", () => {
    const [bySystem] = schedulePastRule(scheduled("2026-09-01T10:00:00-07:00"), { now });
    expect(bySystem?.message).toContain("in the past by the system clock (2026-10-01T16:00:00.000Z)");
    expect(bySystem?.message).toContain("plan judges it against the API's clock");
    const [byFlag] = schedulePastRule(scheduled("2026-09-01T10:00:00-07:00"), { now, clock: "--now" });
    expect(byFlag?.message).toContain("in the past by --now (2026-10-01T16:00:00.000Z)");
  });

  it("is skipped without a clock (plan judges past schedules by the API's clock)", () => {
    expect(schedulePastRule(scheduled("2020-01-01T10:00:00Z"), { now: null })).toEqual([]);
  });
});

describe("quiet hours (08:00-21:00 local, half-open: 21:00 is quiet)", () => {
  const cases: { at: string; timezone: ScheduleSpec["timezone"]; flagged: boolean; shown?: string }[] = [
    { at: "2026-11-03T07:59:00-08:00", timezone: "America/Los_Angeles", flagged: true, shown: "07:59" },
    { at: "2026-11-03T08:00:00-08:00", timezone: "America/Los_Angeles", flagged: false },
    { at: "2026-11-03T20:59:00-08:00", timezone: "America/Los_Angeles", flagged: false },
    { at: "2026-11-03T21:00:00-08:00", timezone: "America/Los_Angeles", flagged: true, shown: "21:00" },
    { at: "2026-11-03T21:00:30-08:00", timezone: "America/Los_Angeles", flagged: true, shown: "21:00:30" },
    { at: "2026-11-03T21:01:00-08:00", timezone: "America/Los_Angeles", flagged: true, shown: "21:01" },
    // 09:59 in Los Angeles (PST) is 07:59 in Honolulu; 10:00 is 08:00.
    { at: "2026-11-03T09:59:00-08:00", timezone: "Pacific/Honolulu", flagged: true, shown: "07:59" },
    { at: "2026-11-03T10:00:00-08:00", timezone: "Pacific/Honolulu", flagged: false },
    // 12:00 UTC is 08:00 in New York during DST.
    { at: "2026-07-01T12:00:00Z", timezone: "America/New_York", flagged: false },
    { at: "2026-12-01T12:00:00Z", timezone: "America/New_York", flagged: true, shown: "07:00" },
    { at: "now", timezone: "America/Los_Angeles", flagged: false },
  ];
  it.each(cases)("$at in $timezone: flagged $flagged", ({ at, timezone, flagged, shown }) => {
    const diagnostics = quietHoursRule(scheduled(at, { timezone }), { now });
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual(
      flagged ? [["lint.quiet-hours", "warning", lineOf(["schedule", "at"])]] : [],
    );
    if (shown !== undefined) expect(diagnostics[0]?.message).toContain(`sends at ${shown} ${timezone}`);
  });

  it.each(TCPA_BOUNDARIES)("the shared boundary table: $name", (row) => {
    const diagnostics = quietHoursRule(scheduled(row.at, { timezone: row.zone }), { now });
    expect(diagnostics.map((d) => d.code)).toEqual(row.inside ? [] : ["lint.quiet-hours"]);
    if (!row.inside)
      expect(diagnostics[0]?.message).toContain(`sends at ${row.local} ${row.zone} local time`);
  });
});

describe("daily cap bypass", () => {
  it("warns at the daily_cap_bypass key", () => {
    const diagnostics = dailyCapBypassRule(scheduled("2026-11-03T10:00:00-08:00", { bypass: true }), { now });
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual([
      ["lint.daily-cap-bypass", "warning", lineOf(["schedule", "daily_cap_bypass"])],
    ]);
    expect(diagnostics[0]?.message).toContain("may fail and are still billed");
  });
  it("is quiet without the bypass", () => {
    expect(dailyCapBypassRule(scheduled("2026-11-03T10:00:00-08:00"), { now })).toEqual([]);
    expect(dailyCapBypassRule(projectSpec(), { now })).toEqual([]);
  });
});
