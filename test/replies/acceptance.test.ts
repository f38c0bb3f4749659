/**
 * Issue 28's acceptance, scaled to run in seconds (bench/replies.mjs runs it at full scale: 500
 * inbounds, 30 % of the webhook deliveries dropped, 5 kills): every inbound a rule matches has
 * exactly one answer in its thread, no opt-out has one, the inbounds whose deliveries were all
 * dropped are answered through polling, no minute holds two GET /conversations passes, and the
 * plan made before agrees with what the runs did.
 */
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWERS, type ChaosResult, chaos, REPLY_FAULTS } from "./chaos.js";

const SCALE = {
  inbounds: Number(process.env.REPLIES_CHAOS_INBOUNDS ?? 60),
  dropShare: 0.3,
  kills: Number(process.env.REPLIES_CHAOS_KILLS ?? 3),
  seed: Number(process.env.REPLIES_CHAOS_SEED ?? 28),
  faults: REPLY_FAULTS,
  budgetMs: Number(process.env.REPLIES_CHAOS_BUDGET_MS ?? 60_000),
};

let world: ChaosResult;
beforeAll(async () => {
  world = await chaos(SCALE);
}, SCALE.budgetMs + 30_000);
afterAll(async () => {
  if (process.env.REPLIES_FIGURES !== undefined && world !== undefined) {
    const gaps = world.passes.slice(1).map((t, i) => t - (world.passes[i] ?? 0));
    writeFileSync(
      process.env.REPLIES_FIGURES,
      `${JSON.stringify(
        {
          inbounds: world.sent.length,
          matching: world.sent.filter((s) => s.rule !== null).length,
          answered: [...world.answers.values()].filter((a) => a.length > 0).length,
          answered_twice: [...world.answers.values()].filter((a) => a.length > 1).length,
          dropped_webhook_events: world.dropped.size,
          kills: world.kills,
          passes: world.passes.length,
          shortest_gap_between_passes_ms: gaps.length === 0 ? null : Math.min(...gaps),
          reply_statuses: world.replyStatuses,
          settled_from_threads: world.record.filter((l) => l.via === "thread").length,
        },
        null,
        2,
      )}\n`,
    );
  }
  await world?.close();
});

describe(`replies under faults, dropped webhooks and ${SCALE.kills} kills (${SCALE.inbounds} inbounds)`, () => {
  it("was killed as often as planned and ended cleanly", () => {
    expect(world.kills).toBe(SCALE.kills);
    const last = world.runs.at(-1);
    expect(last?.code, last?.stderr).toBe(0);
    expect(last?.lines.at(-1)).toMatchObject({ type: "stopped", reason: "interrupted" });
  });

  it("met the reply endpoint's faults, and settled unknown outcomes from the threads", () => {
    expect(Object.keys(world.replyStatuses).sort()).toEqual(expect.arrayContaining(["202", "500", "503"]));
    expect(world.record.filter((l) => l.t === "answered" && l.via === "thread").length).toBeGreaterThan(0);
    // One line per inbound: nothing settled twice across the restarts.
    const ids = world.record.map((l) => l.inbound_message_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("answers every inbound a rule matches exactly once, and no other", () => {
    for (const s of world.sent) {
      const answers = world.answers.get(s.messageId);
      if (s.rule === null) expect(answers, `${s.text} (${s.messageId})`).toEqual([]);
      else expect(answers, `${s.text} (${s.messageId})`).toEqual([ANSWERS[s.rule as keyof typeof ANSWERS]]);
    }
  });

  it("answers the inbounds whose webhook deliveries were all dropped, through polling", () => {
    const missed = world.sent.filter((s) => world.dropped.has(s.messageId) && s.rule !== null);
    expect(missed.length).toBeGreaterThan(0);
    for (const s of missed) expect(world.answers.get(s.messageId)).toHaveLength(1);
  });

  it("holds no two GET /conversations passes within a minute", () => {
    const gaps = world.passes.slice(1).map((t, i) => t - (world.passes[i] ?? 0));
    expect(world.passes.length).toBeGreaterThan(1);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(60_000);
  });

  it("did what the plan said", () => {
    const planned = new Set(
      world.plan.inbounds
        .filter((i: { verdict: string }) => i.verdict === "answer")
        .map((i: { message_id: string }) => i.message_id),
    );
    const answered = new Set(
      world.sent.filter((s) => (world.answers.get(s.messageId) ?? []).length > 0).map((s) => s.messageId),
    );
    expect(answered).toEqual(planned);
    expect(world.plan.totals.answer).toBe(world.sent.filter((s) => s.rule !== null).length);
  });
});
