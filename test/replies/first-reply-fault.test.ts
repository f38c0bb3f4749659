/**
 * Exactly once for the first answer of a fresh conversation when the reply endpoint commits and then
 * fails (500, or a dropped connection): the worker reads the thread, finds its answer, sends nothing
 * more. Counted from the sandbox's thread and request log.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, EXAMPLE_FIXTURE } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, campaignDir, runJson, textIn } from "./world.js";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: 11 });
});
afterEach(async () => {
  await sb.close();
});

describe("the first answer of a conversation under a fault after commit", () => {
  for (const action of ["commit-then-fail(500)", "commit-then-fail(drop)"])
    it(`${action} on the first reply: one answer in the thread`, async () => {
      const cwd = campaignDir();
      const { messageId, conversationId } = await textIn(sb, "gotv", 901, "Where do I vote??");
      await sb.clock.advance(5_000);
      await admin(sb, "POST", "/faults", {
        spec: `POST /conversations/{conversation_id}/messages: ${action} n=1`,
      });
      const run = await runJson(sb, cwd, { once: true, webhooks: false });
      expect(run.code, run.stderr).toBe(0);
      expect(answersAfter(sb, conversationId, messageId)).toEqual([ANSWERS.where]);
      const line = run.lines.find((l) => l.type === "inbound" && l.message_id === messageId);
      expect(line).toMatchObject({ outcome: "answered" });
      // The fault fired on the one POST, and no second POST was made.
      const log = (await admin(sb, "GET", "/requests")).body.data.requests as {
        method: string;
        route: string;
        status: number;
      }[];
      const posts = log.filter(
        (r) => r.method === "POST" && r.route === "/conversations/{conversation_id}/messages",
      );
      expect(posts.map((r) => r.status)).toEqual([action.includes("500") ? 500 : expect.any(Number)]);

      // A later run sends nothing more.
      await sb.clock.advance(61_000);
      const again = await runJson(sb, cwd, { once: true, webhooks: false });
      expect(again.code, again.stderr).toBe(0);
      expect(answersAfter(sb, conversationId, messageId)).toEqual([ANSWERS.where]);
    });
});
