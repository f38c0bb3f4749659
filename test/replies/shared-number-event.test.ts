/**
 * An event whose conversation no pass has seen yet is placed by the number it was sent to. In the
 * example world, GOTV Reminder (reply rules) and Runoff Notice (English) (in the files, no reply
 * rules) both send from +15035550102. A contact's first text to the runoff notice, delivered by
 * webhook to a running worker, must not be answered with GOTV Reminder's rules: `replies plan`
 * says `no-rules` for it, and `replies run` sends nothing in that conversation (sandbox threads).
 */
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, EXAMPLE_FIXTURE } from "../sandbox/helpers.js";
import { CAMPAIGN, campaignDir, contact, GOTV_NUMBER, listeningRun, planJson, threads } from "./world.js";

const RUNOFF_EN = "9a000000-0000-4000-8000-000000000005";
const SECRET = "whsec_replies_shared_number_0123456789";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: 46 });
});
afterEach(async () => {
  await sb.close();
});

it("does not answer an event of a project without rules that shares the number of one with rules", async () => {
  const cwd = campaignDir({
    ...CAMPAIGN,
    projects: { ...CAMPAIGN.projects, "runoff-en": { id: RUNOFF_EN, phone_numbers: [GOTV_NUMBER] } },
  });
  const run = listeningRun(sb, cwd, { name: "HOOK_SECRET", value: SECRET });
  const url = await run.url;
  await admin(sb, "POST", "/webhook-endpoints", { url, events: ["message.replied"], secret: SECRET });
  // The worker's first pass is over (it learned the conversations that were there).
  const passed = async () =>
    ((await admin(sb, "GET", "/requests")).body.data.requests as { method: string; route: string }[]).some(
      (r) => r.method === "GET" && r.route === "/conversations",
    );
  while (!(await passed())) await delay(2);

  // A new contact texts the runoff notice's number: a conversation no pass has seen.
  const reply = await admin(sb, "POST", "/inbound", {
    project_id: RUNOFF_EN,
    contact_phone: contact(461),
    phone_number: GOTV_NUMBER,
    text: "Where do I vote??",
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const conversationId = reply.body.data.conversation.conversation_id as string;
  const messageId = reply.body.data.message.message_id as string;
  // Until the worker took the event and the next pass ran (a minute and more of the API's clock).
  const until = sb.clock.nowMs() + 90_000;
  while (sb.clock.nowMs() < until) await delay(2);
  run.stop();
  const result = await run.result;
  expect(result.code, result.stderr).toBe(0);

  const outbound = (threads(sb).get(conversationId) ?? []).filter((m) => m.direction === "outbound");
  expect(outbound).toEqual([]);
  const lines = result.lines.filter((l) => l.type === "inbound" && l.message_id === messageId);
  // The event is left to the pass, which learns the conversation's project: no rules.
  expect(lines.map((l) => `${l.via} ${l.outcome}`)).toEqual(["event deferred", "poll no-rules"]);

  const plan = await planJson(sb, cwd);
  const planned = plan.plan.inbounds.find((i: { message_id: string }) => i.message_id === messageId);
  expect(planned?.verdict).toBe("no-rules");
});
