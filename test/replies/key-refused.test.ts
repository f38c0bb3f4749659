/**
 * An answer the API refuses for the key (403: a key without `public:write`; 401: revoked) sent
 * nothing, and another key sends it: the worker stops (exit 1) with the key's problem, records
 * nothing for that inbound, and the next run, with a key that may write, answers it.
 */
import { afterEach, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { exampleFixture, GOTV_REMINDER } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, campaignDir, runJson, textIn } from "./world.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
});

const READ_ONLY_KEY = "pc_live_sbx_rv_ro_Q2w8Nd5kT1";

it("stops when the API refuses the key for an answer (403, no write scope), records nothing, and answers on the next run with a key that may write", async () => {
  const fixture = exampleFixture();
  const project = (fixture.projects ?? []).find((p) => p.project_id === GOTV_REMINDER);
  if (project === undefined) throw new Error("no project");
  fixture.api_keys.push({
    key: READ_ONLY_KEY,
    name: "Riverside Democrats (reads only)",
    organization_id: project.organization_id,
    type: "read-write",
    scopes: ["public:read"],
  });
  const s = await startSandbox({ fixture, timeScale: 0, rateLimits: true, seed: 3 });
  sb = s;
  const cwd = campaignDir();
  const first = await textIn(s, "gotv", 1, "where do I vote?");

  const refused = await runJson(
    s,
    cwd,
    { once: true, webhooks: false },
    {},
    { CAMPAIGNCTL_API_KEY: READ_ONLY_KEY },
  );
  expect(refused.code).toBe(1);
  expect(refused.lines.at(-1)).toMatchObject({
    type: "stopped",
    reason: "key-refused",
    totals: { answered: 0 },
  });
  expect(refused.stderr).toContain("replies.key-refused");
  expect(answersAfter(s, first.conversationId, first.messageId)).toEqual([]);

  await s.clock.advance(61_000);
  const fixed = await runJson(s, cwd, { once: true, webhooks: false });
  expect(fixed.code, fixed.stderr).toBe(0);
  expect(answersAfter(s, first.conversationId, first.messageId)).toEqual([ANSWERS.where]);
});
