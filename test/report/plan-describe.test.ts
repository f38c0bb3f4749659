import { describe, expect, it } from "vitest";
import type { Action } from "../../src/plan/types.js";
import {
  describeEstimate,
  describeRequest,
  formatCents,
  formatCount,
} from "../../src/report/plan-describe.js";
import { wrapText } from "../../src/report/text-wrap.js";

function schedule(body: unknown): Action {
  return {
    id: "a.schedule",
    address: "a",
    project_id: "p",
    kind: "schedule",
    status: "planned",
    request: { method: "POST", path: "/projects/p/schedule", body, idempotency_key: null },
    depends_on: [],
    before: "ready",
    after: "scheduled",
    reason: "r",
  };
}

describe("plan wording", () => {
  it("formats counts and cents independently of the locale", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCents(5)).toBe("$0.05");
    expect(formatCents(123456789.6)).toBe("$1,234,567.90");
  });

  it("describes a schedule in its zone and in UTC, with the date when UTC's differs", () => {
    const at = (scheduled_at: string, scheduled_timezone: string) =>
      describeRequest(schedule({ scheduled_at, scheduled_timezone, daily_cap_bypass: false }));
    expect(at("2026-12-01T09:00:00-06:00", "America/Chicago")).toBe(
      "at 2026-12-01 09:00 America/Chicago (15:00 UTC), daily cap bypass off",
    );
    expect(at("2026-12-01T15:00:00Z", "America/Chicago")).toBe(
      "at 2026-12-01 09:00 America/Chicago (15:00 UTC), daily cap bypass off",
    );
    expect(at("2026-12-01T20:30:15-10:00", "Pacific/Honolulu")).toBe(
      "at 2026-12-01 20:30:15 Pacific/Honolulu (2026-12-02 06:30:15 UTC), daily cap bypass off",
    );
    expect(at("not a time", "America/Chicago")).toBe("at not a time, daily cap bypass off");
  });

  it("describes estimates, MMS without segments", () => {
    expect(describeEstimate({ recipients: 1, segments: 1, encoding: "UCS-2", estimated_cost_cents: 3 })).toBe(
      "1 recipient x 1 segment (UCS-2) = 1 segment, about $0.03",
    );
    expect(
      describeEstimate({ recipients: 2000, segments: null, encoding: "MMS", estimated_cost_cents: 4000 }),
    ).toBe("2,000 recipients, MMS (segments do not apply), about $40.00");
  });

  it("wraps at word boundaries with a hanging indent and keeps a long word whole", () => {
    expect(wrapText("one two three four", 12, "  x: ", "     ")).toBe("  x: one two\n     three\n     four");
    expect(wrapText("averyveryverylongword end", 10, "> ", "  ")).toBe("> averyveryverylongword\n  end");
  });
});
