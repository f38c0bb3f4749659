/**
 * Answers to inbound texts are not a project's sends (issue 35, point 7): the sandbox, like an API
 * may (the contract does not say), counts a reply sent in a project's conversation in that
 * project's `messages_sent` and `messages_delivered`. A project that has not started sending
 * (draft, awaiting_test, ready, scheduled) has sent nothing to its recipients, so `status` shows
 * 0 sent, 0 delivered, 0 failed for it, whatever its statistics row counts; the row's other
 * counters (replies received, cost) are shown as they are.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { admin, api, EARLY_VOTE } from "../sandbox/helpers.js";
import { rawProject, runStatus } from "./harness.js";
import { workDir } from "./world.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

describe("status: answers to inbounds are not the project's sends", () => {
  test("a scheduled project whose inbound was answered shows 0 of its recipients sent", async () => {
    sb = await startSandbox({ timeScale: 0, rateLimits: true });
    const inbound = await admin(sb, "POST", "/inbound", {
      project_id: EARLY_VOTE,
      contact_phone: "+15035550177",
      text: "who is this?",
    });
    expect(inbound.status).toBe(200);
    const conversation = inbound.body.data.conversation.conversation_id as string;
    const answer = await api(sb, "POST", `/conversations/${conversation}/messages`, {
      body: { text: "Riverside Democrats, about early voting. Reply STOP to opt out" },
    });
    expect(answer.status).toBe(202);
    await sb.clock.advance(10_000);
    const raw = await rawProject(sb, EARLY_VOTE);
    expect(raw.status).toBe("scheduled");
    // The statistics count the answer as the project's message.
    expect(raw.counters.messages_sent).toBe(1);
    expect(raw.counters.messages_delivered + raw.counters.messages_failed).toBe(1);

    const run = await runStatus(sb, workDir(), ["--all", "--json"], [], { all: true, json: true });
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout);
    const project = document.projects.find((p: { id: string }) => p.id === EARLY_VOTE);
    expect(project).toMatchObject({ status: "scheduled", sent: 0, delivered: 0, failed: 0, replies: 1 });
    expect(project.delivery_rate).toBeNull();
    expect(document.totals.sent).toBe(
      document.projects.reduce((n: number, p: { sent: number | null }) => n + (p.sent ?? 0), 0),
    );
  });
});
