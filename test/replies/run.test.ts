/**
 * `replies plan` and `replies run --once --no-webhooks` against the sandbox over loopback: what the
 * plan says is what the run then does, counted from the sandbox's threads.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, EXAMPLE_FIXTURE } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, campaignDir, planJson, runJson, TEXTS, textIn } from "./world.js";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: 7 });
});
afterEach(async () => {
  await sb.close();
});

describe("replies plan, then replies run --once", () => {
  it("answers each matching inbound once, never an opt-out, and agrees with the plan", async () => {
    const cwd = campaignDir();
    const sent: { messageId: string; conversationId: string; rule: string | null }[] = [];
    for (const [n, t] of TEXTS.entries())
      sent.push({ ...(await textIn(sb, t.project, n, t.text)), rule: t.rule });
    await sb.clock.advance(5_000);

    const { code, plan } = await planJson(sb, cwd, { segmentPrice: 0.0079 });
    expect(code).toBe(0);
    const verdicts = Object.fromEntries(
      plan.inbounds.map((i: { message_id: string; verdict: string; rule: string | null }) => [
        i.message_id,
        [i.verdict, i.rule],
      ]),
    );
    for (const s of sent)
      expect(verdicts[s.messageId], s.messageId).toEqual(
        s.rule === null ? [expect.any(String), null] : ["answer", s.rule],
      );
    expect(plan.totals).toMatchObject({ answer: 7, "opt-out": 3, unmatched: 2 });
    expect(plan.cost_usd).toBeCloseTo(plan.segments * 0.0079, 6);

    const run = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines[0].type).toBe("started");
    expect(run.lines.at(-1)).toMatchObject({ type: "stopped", reason: "once", totals: { answered: 7 } });
    const answered = new Set(
      run.lines.filter((l) => l.type === "inbound" && l.outcome === "answered").map((l) => l.message_id),
    );
    const planned = new Set(
      plan.inbounds
        .filter((i: { verdict: string }) => i.verdict === "answer")
        .map((i: { message_id: string }) => i.message_id),
    );
    expect(answered).toEqual(planned);
    for (const s of sent) {
      const answers = answersAfter(sb, s.conversationId, s.messageId);
      if (s.rule === null) expect(answers, s.messageId).toEqual([]);
      else expect(answers).toEqual([ANSWERS[s.rule as keyof typeof ANSWERS]]);
    }

    // A second run a minute later: nothing new, nothing sent again; the plan now says answered.
    await sb.clock.advance(61_000);
    const again = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(again.code, again.stderr).toBe(0);
    expect(again.lines.filter((l) => l.type === "inbound" && l.outcome === "answered")).toEqual([]);
    const after = await planJson(sb, cwd);
    expect(after.plan.totals.answer).toBe(0);
    expect(after.plan.totals.answered).toBe(7);
  });

  it("makes at most one GET /conversations pass a minute, across runs", async () => {
    const cwd = campaignDir();
    await textIn(sb, "gotv", 1, "where do I vote");
    const first = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(first.code, first.stderr).toBe(0);
    await sb.clock.advance(30_000);
    const second = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(second.lines.filter((l) => l.type === "pass")).toEqual([]);
    expect(
      second.lines.some((l) => l.type === "problem" && l.diagnostic.code === "replies.pass-not-due"),
    ).toBe(true);
    const log = (await admin(sb, "GET", "/requests")).body.data.requests as {
      route: string;
      method: string;
    }[];
    expect(log.filter((r) => r.method === "GET" && r.route === "/conversations")).toHaveLength(1);
  });
});

describe("the terminal views", () => {
  it("replies run and replies plan print words, not JSON", async () => {
    const { repliesRunCommand } = await import("../../cli/commands/replies-run.js");
    const { repliesPlanCommand } = await import("../../cli/commands/replies-plan.js");
    const { captureIo } = await import("../helpers/run-cli.js");
    const { PARENT_KEY } = await import("../sandbox/helpers.js");
    const cwd = campaignDir();
    await textIn(sb, "gotv", 1, "¿Dónde voto?");
    await textIn(sb, "gotv", 2, "can I bring my dog");
    const session = {
      clock: { now: () => sb.clock.nowMs() },
      sleep: async (ms: number) => sb.clock.advance(ms),
    };
    const planIo = captureIo({
      env: { CAMPAIGNCTL_API_KEY: PARENT_KEY },
      cwd,
      clock: () => sb.clock.nowMs(),
    });
    await repliesPlanCommand([], { baseUrl: sb.baseUrl, segmentPrice: 0.01 }, planIo, { session });
    expect(planIo.out()).toContain("Would answer: 1\n  gotv-reminder -> donde");
    expect(planIo.out()).toContain("Unmatched (no rule: for a person to read and answer): 1");
    expect(planIo.out()).toContain('"can I bring my dog"');
    expect(planIo.out()).toContain("Cost: 1 answer, 1 SMS segment (about $0.0100)");
    const runIo = captureIo({ env: { CAMPAIGNCTL_API_KEY: PARENT_KEY }, cwd, clock: () => sb.clock.nowMs() });
    await repliesRunCommand(
      [],
      {
        baseUrl: sb.baseUrl,
        once: true,
        webhooks: false,
        state: ".campaignctl/replies",
      },
      runIo,
      { session, sleep: session.sleep, now: () => sb.clock.nowMs(), onInterrupt: () => () => {} },
    );
    expect(runIo.out()).toMatch(/^replies run: 2 projects with reply rules \(gotv-reminder, volunteers\)/);
    expect(runIo.out()).toMatch(/answered {3}gotv-reminder donde {2}\S+ via poll -> \S+/);
    expect(runIo.out()).toMatch(/stopped \(once\): 1 answered \(1 segment\)/);
  });
});
