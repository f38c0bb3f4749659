/**
 * 402 INSUFFICIENT_BALANCE stops the worker with a clear message (exit 1), nothing recorded as
 * answered and nothing charged; once funds are there, the next run answers the inbound.
 */
import { afterEach, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { exampleFixture, GOTV_REMINDER } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, campaignDir, runJson, textIn } from "./world.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
});

it("stops at 402 and answers on the next run once the organization can pay", async () => {
  const fixture = exampleFixture();
  const project = (fixture.projects ?? []).find((p) => p.project_id === GOTV_REMINDER);
  const org = (fixture.organizations ?? []).find((o) => o.id === project?.organization_id);
  if (org === undefined) throw new Error("no organization");
  (org as { balance_cents: number }).balance_cents = 0;
  const s = await startSandbox({ fixture, timeScale: 0, rateLimits: true, seed: 3 });
  sb = s;
  const cwd = campaignDir();
  const first = await textIn(s, "gotv", 1, "where do I vote?");
  await textIn(s, "gotv", 2, "Who is this?");

  const broke = await runJson(s, cwd, { once: true, webhooks: false });
  expect(broke.code).toBe(1);
  expect(broke.lines.at(-1)).toMatchObject({
    type: "stopped",
    reason: "insufficient-balance",
    totals: { answered: 0 },
  });
  expect(broke.stderr).toContain("replies.insufficient-balance");
  expect(answersAfter(s, first.conversationId, first.messageId)).toEqual([]);

  s.store.mutate((w) => {
    const o = w.organizations[org.id];
    if (o !== undefined) o.balance_cents = 100_000;
  });
  await s.clock.advance(61_000);
  const paid = await runJson(s, cwd, { once: true, webhooks: false });
  expect(paid.code, paid.stderr).toBe(0);
  expect(answersAfter(s, first.conversationId, first.messageId)).toEqual([ANSWERS.where]);
});
