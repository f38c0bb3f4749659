/** A guard in words (plan terminal, Markdown, gallery), table-driven. */
import { describe, expect, it } from "vitest";
import type { PlanGuard } from "../../src/plan/types.js";
import { describeGuard, describeGuardShort, formatRate } from "../../src/report/guard-describe.js";

describe("formatRate", () => {
  it.each([
    [0, "0%"],
    [0.05, "5%"],
    [0.07, "7%"],
    [0.015, "1.5%"],
    [0.075, "7.5%"],
    [0.001, "0.1%"],
    [0.00001, "0.001%"],
    [1 / 3, "33.3333%"],
    [1, "100%"],
  ])("%s is %s", (rate, text) => {
    expect(formatRate(rate)).toBe(text);
  });
});

describe("describeGuard", () => {
  const guard = (g: Partial<PlanGuard>): PlanGuard => ({
    max_failure_rate: null,
    max_opt_out_rate: null,
    min_sample: 100,
    ...g,
  });
  it.each([
    [
      guard({ max_failure_rate: 0.05, max_opt_out_rate: 0.02, min_sample: 1500 }),
      "campaignctl watch pauses the send when its failure rate is over 5% or its opt-out rate is over 2%, judged once 1,500 messages are sent",
      "failure > 5%, opt-out > 2% (from 1,500 sent)",
    ],
    [
      guard({ max_opt_out_rate: 0.015 }),
      "campaignctl watch pauses the send when its opt-out rate is over 1.5%, judged once 100 messages are sent",
      "opt-out > 1.5% (from 100 sent)",
    ],
    [
      guard({ max_failure_rate: 0, min_sample: 1 }),
      "campaignctl watch pauses the send when its failure rate is over 0%, judged once 1 message is sent",
      "failure > 0% (from 1 sent)",
    ],
    [
      guard({}),
      "campaignctl watch never pauses the send (the guard sets no rate)",
      "no rate (from 100 sent)",
    ],
  ])("%j", (g, long, short) => {
    expect(describeGuard(g)).toBe(long);
    expect(describeGuardShort(g)).toBe(short);
  });

  it("no guard is none", () => {
    expect(describeGuardShort(null)).toBe("none");
  });
});
