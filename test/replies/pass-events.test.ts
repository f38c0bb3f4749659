/**
 * An event that arrives during a long `GET /conversations` pass is settled between two of the
 * pass's conversations, not after the whole pass; and still once (the record and the key): the pass
 * then meets it as recorded. The worker runs in-process against the sandbox over loopback; the
 * event is handed in (as the listener hands it) while the pass reads its second thread.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";
import { openRepliesState } from "../../cli/adapters/replies-state.js";
import { createApiClient } from "../../src/api/index.js";
import { revocationWords } from "../../src/message/reply-words.js";
import type { RunEvent } from "../../src/replies/events.js";
import type { RepliesPort } from "../../src/replies/port.js";
import { replyProjects } from "../../src/replies/projects.js";
import { RepliesWorker } from "../../src/replies/worker.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, campaignDir, GOTV_NUMBER, textIn } from "./world.js";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: 17 });
});
afterEach(async () => {
  await sb.close();
});

it("settles an event that arrives mid-pass before the pass ends, and answers it once", async () => {
  const cwd = campaignDir();
  const before: { messageId: string; conversationId: string }[] = [];
  for (let n = 0; n < 6; n++) before.push(await textIn(sb, "gotv", n, "Where do I vote?"));
  await sb.clock.advance(5_000);

  const sleep = async (ms: number) => sb.clock.advance(ms);
  const client = createApiClient({
    baseUrl: sb.baseUrl,
    apiKey: PARENT_KEY,
    clock: { now: () => sb.clock.nowMs() },
    sleep,
  });
  const stateDir = mkdtempSync(join(tmpdir(), "cc-replies-pass-"));
  const state = await openRepliesState(stateDir);
  const events: RunEvent[] = [];
  let threadReads = 0;
  let late: { messageId: string; conversationId: string } | null = null;
  let worker: RepliesWorker | null = null;
  // The client, and while the pass reads its second thread a contact texts in and its event arrives.
  const port: RepliesPort = {
    listConversations: (q, c) => client.listConversations(q, c),
    replyToConversation: (id, text, key) => client.replyToConversation(id, text, key),
    getConversationMessages: async (id, q) => {
      threadReads++;
      if (threadReads === 2 && late === null) {
        const inbound = await textIn(sb, "gotv", 99, "where do I vote tomorrow");
        late = inbound;
        worker?.enqueue({
          conversationId: inbound.conversationId,
          inboundId: inbound.messageId,
          via: "event",
          eventOptOut: false,
          conversationOptedOut: false,
          to: GOTV_NUMBER,
          done: () => {},
        });
      }
      return client.getConversationMessages(id, q);
    },
  };
  worker = new RepliesWorker({
    port,
    state,
    revocation: revocationWords(undefined),
    now: () => sb.clock.nowMs(),
    sleep,
    signal: new AbortController().signal,
    maxSends: 3,
    backoffMs: 1000,
    segmentPriceUsd: null,
    projects: replyProjects(loadCampaign(["."], cwd).campaign.projects),
    firstWindowMs: 86_400_000,
    pollIntervalMs: 60_000,
    until: "once",
    onEvent: (e) => events.push(e),
  });
  const summary = await worker.run();
  state.close();
  await client.close();
  expect(summary.reason).toBe("once");

  const lateInbound = late as { messageId: string; conversationId: string } | null;
  if (lateInbound === null) throw new Error("the event was never handed in");
  const order = events.map((e) =>
    e.type === "inbound" ? `${e.via}:${e.message_id === lateInbound.messageId ? "late" : "early"}` : e.type,
  );
  const pass = order.indexOf("pass");
  const eventAt = order.indexOf("event:late");
  expect(eventAt, order.join(" ")).toBeGreaterThan(-1);
  // Settled before the pass ended, with conversations of the pass still after it.
  expect(eventAt).toBeLessThan(pass);
  expect(order.slice(eventAt + 1, pass).filter((o) => o === "poll:early").length).toBeGreaterThan(0);
  expect(events.find((e) => e.type === "inbound" && e.message_id === lateInbound.messageId)).toMatchObject({
    outcome: "answered",
    rule: "where",
  });
  for (const s of [...before, lateInbound])
    expect(answersAfter(sb, s.conversationId, s.messageId)).toEqual([ANSWERS.where]);
});
