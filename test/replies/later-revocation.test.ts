/**
 * A contact asks a question a rule answers, then revokes consent before the worker answered it (a
 * pass every minute, `--once` from cron, a worker that was down): the question is not answered,
 * since the answer would text a contact who said stop. The API flags neither "please stop texting
 * me" nor a disguised STOP (the conversation is not opted out), so the worker is all that holds the
 * answer back. `replies plan` says so first; a question answered before the revocation stays
 * answered, and one asked after it is judged as before. Counted from the sandbox's threads.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, EXAMPLE_FIXTURE } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, campaignDir, planJson, runJson, textIn, threads } from "./world.js";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: 46 });
});
afterEach(async () => {
  await sb.close();
});

/** Every outbound text of the conversation after the inbound `messageId` (later inbounds or not). */
function sentAfter(conversationId: string, messageId: string): string[] {
  const thread = threads(sb).get(conversationId) ?? [];
  const at = thread.findIndex((m) => m.id === messageId);
  return thread.slice(at + 1).flatMap((m) => (m.direction === "outbound" ? [m.text] : []));
}

/** Revocations the API does not flag (the conversation stays `opted_out: false`). */
const LATER = ["please stop texting me", "no me escribas más", "\u0405TOP", "S-T-O-P"] as const;

describe("a revocation after a question not yet answered", () => {
  it("holds the answer back, in plan and run", async () => {
    const cwd = campaignDir();
    const asked: { conversationId: string; messageId: string }[] = [];
    for (const [k, revocation] of LATER.entries()) {
      asked.push(await textIn(sb, "gotv", 460 + k, "Where do I vote??"));
      await sb.clock.advance(20_000);
      await textIn(sb, "gotv", 460 + k, revocation);
    }
    // Control: the same question, no revocation after it.
    const plain = await textIn(sb, "gotv", 470, "Where do I vote??");
    await sb.clock.advance(5_000);

    const plan = await planJson(sb, cwd);
    expect(plan.code, plan.stderr).toBe(0);
    const verdict = (id: string) =>
      plan.plan.inbounds.find((i: { message_id: string }) => i.message_id === id)?.verdict;
    expect(asked.map((a) => verdict(a.messageId))).toEqual(LATER.map(() => "opt-out"));
    expect(verdict(plain.messageId)).toBe("answer");

    const run = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(run.code, run.stderr).toBe(0);
    for (const a of asked) expect(sentAfter(a.conversationId, a.messageId)).toEqual([]);
    expect(answersAfter(sb, plain.conversationId, plain.messageId)).toEqual([ANSWERS.where]);
    const outcomes = new Map(
      run.lines
        .filter((l) => l.type === "inbound")
        .map((l) => [l.message_id as string, l.outcome as string] as const),
    );
    expect(asked.map((a) => outcomes.get(a.messageId))).toEqual(LATER.map(() => "opt-out"));
  });

  it("leaves an answer sent before the revocation answered, and judges a question after it", async () => {
    const cwd = campaignDir();
    const first = await textIn(sb, "gotv", 480, "Where do I vote??");
    await sb.clock.advance(5_000);
    expect((await runJson(sb, cwd, { once: true, webhooks: false })).code).toBe(0);
    expect(answersAfter(sb, first.conversationId, first.messageId)).toEqual([ANSWERS.where]);
    await sb.clock.advance(20_000);
    await textIn(sb, "gotv", 480, "please stop texting me");
    await sb.clock.advance(20_000);
    const after = await textIn(sb, "gotv", 480, "who is this?");
    await sb.clock.advance(61_000);
    const plan = await planJson(sb, cwd, { state: ".campaignctl/replies" });
    const verdicts = plan.plan.inbounds
      .filter((i: { conversation_id: string }) => i.conversation_id === first.conversationId)
      .map((i: { verdict: string }) => i.verdict);
    expect(verdicts).toEqual(["answered", "opt-out", "answer"]);
    const run = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(run.code, run.stderr).toBe(0);
    expect(sentAfter(first.conversationId, first.messageId)).toEqual([ANSWERS.where, ANSWERS.who]);
    expect(answersAfter(sb, after.conversationId, after.messageId)).toEqual([ANSWERS.who]);
  });

  it("does not send again after an unknown outcome when a revocation came in meanwhile", async () => {
    const cwd = campaignDir();
    const asked = await textIn(sb, "gotv", 490, "Where do I vote??");
    await sb.clock.advance(5_000);
    // Two answers fail with nothing sent (500: unknown, re-read each time); the contact says stop
    // during the first wait, so the re-read after the second shows it: no third send.
    await admin(sb, "POST", "/faults", {
      spec: "POST /conversations/{conversation_id}/messages: status(500) n=2",
    });
    let stopped = false;
    const sleep = async (ms: number) => {
      const posted = (await admin(sb, "GET", "/requests")).body.data.requests.some(
        (r: { method: string; status: number }) => r.method === "POST" && r.status === 500,
      );
      if (posted && !stopped) {
        stopped = true;
        await textIn(sb, "gotv", 490, "please stop texting me");
      }
      sb.clock.advance(ms);
    };
    const run = await runJson(sb, cwd, { once: true, webhooks: false }, { sleep, backoffMs: 1_000 });
    expect(stopped).toBe(true);
    expect(sentAfter(asked.conversationId, asked.messageId)).toEqual([]);
    const line = run.lines.find((l) => l.type === "inbound" && l.message_id === asked.messageId);
    expect(line).toMatchObject({ outcome: "unknown" });
    expect(line.detail).toContain("not sent again");

    // The next pass judges it: an opt-out, never answered.
    await sb.clock.advance(61_000);
    const again = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(again.code, again.stderr).toBe(0);
    expect(sentAfter(asked.conversationId, asked.messageId)).toEqual([]);
    const judged = again.lines.find((l) => l.type === "inbound" && l.message_id === asked.messageId);
    expect(judged).toMatchObject({ outcome: "opt-out" });
  });
});
