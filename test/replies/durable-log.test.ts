/**
 * The replies record settles an inbound only once its line is durable (issue 33, point 6): the
 * record (src/replies/state-file.ts) writes through the durable-log port, here an in-memory log that
 * records every operation in order and keeps apart what a sync made durable. The worker's report of
 * a settled inbound (its `inbound` event) that comes before the sync covering its line fails these
 * tests, and so does one that a crash at that moment would lose. The worker runs in-process against
 * the sandbox over loopback.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";
import { createApiClient } from "../../src/api/index.js";
import { revocationWords } from "../../src/message/reply-words.js";
import { replyProjects } from "../../src/replies/projects.js";
import { ANSWERED_FILE_NAME, type AnsweredLine, openRepliesStore } from "../../src/replies/state-file.js";
import { RepliesWorker } from "../../src/replies/worker.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";
import { acknowledgedBeforeSync, MemoryLogs } from "../support/memory-log.js";
import { ANSWERS, answersAfter, campaignDir, textIn } from "./world.js";

const holds = (inbound: string, text: string) => text.includes(`"inbound_message_id":"${inbound}"`);

const line = (id: string): AnsweredLine => ({
  t: "answered",
  inbound_message_id: id,
  conversation_id: "c1",
  project_id: "p1",
  rule: "where",
  answer_message_id: `a-${id}`,
  segments: 1,
  code: null,
  at: "2026-12-01T15:00:00.000Z",
  via: "accepted",
});

describe("the replies record: settled once durable", () => {
  test("an append is synced before it returns, survives a crash, and the cursor is replaced atomically", () => {
    const logs = new MemoryLogs();
    const state = openRepliesStore(logs);
    state.append(line("m1"));
    logs.ack("m1");
    expect(holds("m1", logs.durable(ANSWERED_FILE_NAME))).toBe(true);
    state.saveCursor({ updatedSince: "2026-12-01T15:00:00.000Z", lastPassAt: null, settled: {} });
    expect(logs.ops.map((o) => `${o.op}${"log" in o ? ` ${o.log}` : ""}`)).toEqual([
      `append ${ANSWERED_FILE_NAME}`,
      `sync ${ANSWERED_FILE_NAME}`,
      "ack",
      "replace cursor.json",
    ]);
    logs.crash();
    const again = openRepliesStore(logs);
    expect([...again.answered.keys()]).toEqual(["m1"]);
    expect(again.cursor.updatedSince).toBe("2026-12-01T15:00:00.000Z");
  });

  test("the check fails when the sync is lost: settled before the sync, and lost by a crash", () => {
    const logs = new MemoryLogs();
    const withoutSync = {
      read: (name: string) => logs.read(name),
      open: (name: string) => ({ ...logs.open(name), sync: () => {} }),
    };
    openRepliesStore(withoutSync).append(line("m1"));
    logs.ack("m1");
    expect(acknowledgedBeforeSync(logs.ops, holds)).toEqual(["m1"]);
    logs.crash();
    expect(openRepliesStore(logs).answered.size).toBe(0);
  });
});

describe("the worker reports an inbound settled only after its line is synced", () => {
  let sb: SandboxHandle;
  beforeEach(async () => {
    sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: false, seed: 17 });
  });
  afterEach(async () => {
    await sb.close();
  });

  test("three inbounds answered: each `inbound` event comes after the sync of its line; a crash then keeps all three", async () => {
    const cwd = campaignDir();
    const inbounds: { messageId: string; conversationId: string }[] = [];
    for (let n = 0; n < 3; n++) inbounds.push(await textIn(sb, "gotv", n, "Where do I vote?"));
    await sb.clock.advance(5_000);
    const sleep = async (ms: number) => sb.clock.advance(ms);
    const client = createApiClient({
      baseUrl: sb.baseUrl,
      apiKey: PARENT_KEY,
      clock: { now: () => sb.clock.nowMs() },
      sleep,
    });
    const logs = new MemoryLogs();
    const state = openRepliesStore(logs);
    const settled: { id: string; durable: boolean }[] = [];
    const worker = new RepliesWorker({
      port: client,
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
      onEvent: (e) => {
        if (e.type !== "inbound" || e.outcome !== "answered") return;
        logs.ack(e.message_id);
        settled.push({ id: e.message_id, durable: holds(e.message_id, logs.durable(ANSWERED_FILE_NAME)) });
      },
    });
    const summary = await worker.run();
    state.close();
    await client.close();
    expect(summary.reason).toBe("once");
    expect(settled.map((s) => s.id).sort()).toEqual(inbounds.map((i) => i.messageId).sort());
    expect(settled.filter((s) => !s.durable)).toEqual([]);
    expect(acknowledgedBeforeSync(logs.ops, holds)).toEqual([]);
    logs.crash();
    const again = openRepliesStore(logs);
    expect([...again.answered.keys()].sort()).toEqual(inbounds.map((i) => i.messageId).sort());
    for (const i of inbounds)
      expect(answersAfter(sb, i.conversationId, i.messageId)).toEqual([ANSWERS.where]);
  });
});
