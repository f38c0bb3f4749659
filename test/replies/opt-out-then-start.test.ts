/**
 * A contact asks a question in one conversation, then texts STOP in another conversation of the same
 * organization (the API opts the phone out of every conversation of the organization), then START.
 * The worker that saw the question's conversation opted out must not answer the question after the
 * START: it was asked before the STOP, and the answer would be the wrong send that the event path
 * already never makes (its reply is refused `409 CONTACT_OPTED_OUT` and recorded `refused`, final).
 * Counted from the sandbox's threads.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { EXAMPLE_FIXTURE } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, campaignDir, planJson, runJson, textIn } from "./world.js";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: 50 });
});
afterEach(async () => {
  await sb.close();
});

const opted = (conversationId: string) => sb.store.world.conversations[conversationId]?.opted_out;

describe("a question whose conversation was opted out when the worker judged it", () => {
  it("is not answered after a later START (poll path, as on the event path)", async () => {
    const cwd = campaignDir();
    const asked = await textIn(sb, "volunteers", 520, "I can volunteer a shift on Saturday");
    await sb.clock.advance(20_000);
    const stop = await textIn(sb, "gotv", 520, "STOP");
    expect(opted(asked.conversationId)).toBe(true);
    await sb.clock.advance(5_000);

    const first = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(first.code, first.stderr).toBe(0);
    const judged = first.lines.find((l) => l.type === "inbound" && l.message_id === asked.messageId);
    expect(judged).toMatchObject({ outcome: "opt-out" });
    expect(answersAfter(sb, asked.conversationId, asked.messageId)).toEqual([]);
    // Settled for good, as the event path's 409 CONTACT_OPTED_OUT is.
    const record = readFileSync(join(cwd, ".campaignctl/replies/answered.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
    expect(record).toEqual([
      expect.objectContaining({
        t: "refused",
        inbound_message_id: asked.messageId,
        rule: "shift",
        code: "conversation-opted-out",
      }),
    ]);

    // The contact opts in again, in the question's conversation: it is read again.
    await sb.clock.advance(120_000);
    const start = await textIn(sb, "volunteers", 520, "START");
    await sb.clock.advance(5_000);
    const after = await textIn(sb, "volunteers", 520, "can I help out on Sunday?");
    expect(opted(asked.conversationId)).toBe(false);
    expect(opted(stop.conversationId)).toBe(false);
    await sb.clock.advance(61_000);
    const plan = await planJson(sb, cwd, { state: ".campaignctl/replies" });
    expect(plan.code, plan.stderr).toBe(0);
    const planned = plan.plan.inbounds.find((i: { message_id: string }) => i.message_id === asked.messageId);
    expect(planned).toMatchObject({
      verdict: "refused-before",
      rule: "shift",
      detail: "conversation-opted-out",
    });

    const second = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(second.code, second.stderr).toBe(0);
    expect(answersAfter(sb, asked.conversationId, asked.messageId)).toEqual([]);
    expect(answersAfter(sb, start.conversationId, start.messageId)).toEqual([]);
    const again = second.lines.find((l) => l.type === "inbound" && l.message_id === asked.messageId);
    expect(again === undefined || again.outcome === "recorded", JSON.stringify(again)).toBe(true);
    // A question after the START is judged as any other.
    expect(answersAfter(sb, after.conversationId, after.messageId)).toEqual([ANSWERS.shift]);
  });
});
