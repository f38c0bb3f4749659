/**
 * Latency and throughput of `replies run`, scaled to run in seconds (bench/replies.mjs runs them
 * bigger and records the figures): inbounds arriving one at a time are answered from their
 * webhook events within seconds of the API's clock; a burst is answered at the rate limit's pace,
 * never over the key's 100 requests a minute.
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { percentile, steady } from "./chaos.js";

const N = Number(process.env.REPLIES_STEADY_INBOUNDS ?? 20);
const BURST = Number(process.env.REPLIES_BURST_INBOUNDS ?? 60);
const BUDGET = Number(process.env.REPLIES_CHAOS_BUDGET_MS ?? 60_000);
const figures: Record<string, unknown> = {};

describe("replies run: latency and answers per minute", () => {
  it(
    `answers ${N} spaced inbounds from their events, within seconds`,
    async () => {
      const r = await steady({ inbounds: N, mode: "spaced", gapMs: 5_000, seed: 5, budgetMs: BUDGET });
      expect(r.run.code, r.run.stderr).toBe(0);
      expect(r.answered).toBe(r.expected);
      expect(percentile(r.latenciesMs, 99)).toBeLessThan(60_000);
      figures.spaced = {
        inbounds: N,
        p50_ms: percentile(r.latenciesMs, 50),
        p99_ms: percentile(r.latenciesMs, 99),
      };
    },
    BUDGET + 30_000,
  );

  it(
    `answers a burst of ${BURST} inbounds at the rate limit's pace`,
    async () => {
      const r = await steady({ inbounds: BURST, mode: "burst", gapMs: 0, seed: 6, budgetMs: BUDGET });
      expect(r.run.code, r.run.stderr).toBe(0);
      expect(r.answered).toBe(r.expected);
      expect(r.busiestMinute).toBeLessThanOrEqual(100);
      figures.burst = {
        inbounds: BURST,
        p50_ms: percentile(r.latenciesMs, 50),
        p99_ms: percentile(r.latenciesMs, 99),
        answers_per_minute: Math.round(r.answersPerMinute * 10) / 10,
        busiest_minute_requests: r.busiestMinute,
      };
      if (process.env.REPLIES_FIGURES !== undefined)
        writeFileSync(process.env.REPLIES_FIGURES, `${JSON.stringify(figures, null, 2)}\n`);
    },
    BUDGET + 30_000,
  );
});
