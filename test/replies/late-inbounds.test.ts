/**
 * Issue 34, acceptance 3: polling answers an inbound received before its cursor. A carrier delivers
 * late (30 s, 10 min, 1 h before the newest `last_inbound_at` already settled, in new conversations
 * and in one already settled), the API's clock steps 2 h back, then 26 h forward: each matching
 * inbound is answered exactly once (counted from the sandbox's threads and its request log: one
 * accepted, not replayed, reply per matching inbound), no opt-out is, and `replies plan --state`
 * (made first) names exactly the inbounds `replies run --once` then answers. Runs in-process on the
 * sandbox's virtual clock.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, EXAMPLE_FIXTURE, GOTV_REMINDER } from "../sandbox/helpers.js";
import {
  ANSWERS,
  answersAfter,
  campaignDir,
  contact,
  GOTV_NUMBER,
  planJson,
  runJson,
  textIn,
} from "./world.js";

const STATE = ".campaignctl/replies";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let sb: SandboxHandle;
let cwd: string;
beforeEach(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: false, seed: 36 });
  cwd = campaignDir();
});
afterEach(async () => {
  await sb.close();
});

interface Sent {
  readonly messageId: string;
  readonly conversationId: string;
  readonly rule: keyof typeof ANSWERS | null;
}

/** Contact `n` texts `text` to GOTV Reminder, received at `atMs` (a late delivery: in the past). */
async function textAt(n: number, text: string, atMs: number, rule: Sent["rule"]): Promise<Sent> {
  const reply = await admin(sb, "POST", "/inbound", {
    project_id: GOTV_REMINDER,
    contact_phone: contact(n),
    phone_number: GOTV_NUMBER,
    text,
    at: new Date(atMs).toISOString(),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return {
    messageId: reply.body.data.message.message_id,
    conversationId: reply.body.data.conversation.conversation_id,
    rule,
  };
}

async function setClock(atMs: number): Promise<void> {
  const res = await admin(sb, "POST", "/clock/set", { at: new Date(atMs).toISOString() });
  expect(res.status).toBe(200);
}

/** `replies plan --state`, then `replies run --once`: the plan's `answer`s are what the run answered. */
async function planThenRun(): Promise<Set<string>> {
  const { code, plan } = await planJson(sb, cwd, { state: STATE });
  expect(code).toBe(0);
  const planned = new Set<string>(
    plan.inbounds
      .filter((i: { verdict: string }) => i.verdict === "answer")
      .map((i: { message_id: string }) => i.message_id),
  );
  const run = await runJson(sb, cwd, { once: true, webhooks: false });
  expect(run.code, run.stderr).toBe(0);
  expect(
    run.lines.some((l) => l.type === "pass"),
    "a pass was made",
  ).toBe(true);
  const answered = new Set<string>(
    run.lines.filter((l) => l.type === "inbound" && l.outcome === "answered").map((l) => l.message_id),
  );
  expect(answered).toEqual(planned);
  return answered;
}

/** Every matching inbound has exactly its rule's answer, once; the others none; one accepted reply each. */
async function expectAnsweredOnce(sent: readonly Sent[]): Promise<void> {
  for (const s of sent) {
    const answers = answersAfter(sb, s.conversationId, s.messageId).filter((t) =>
      Object.values(ANSWERS).includes(t as (typeof ANSWERS)[keyof typeof ANSWERS]),
    );
    if (s.rule === null) expect(answers, s.messageId).toEqual([]);
    else expect(answers, s.messageId).toEqual([ANSWERS[s.rule]]);
  }
  const log = (await admin(sb, "GET", "/requests")).body.data.requests as {
    method: string;
    route: string;
    status: number;
    replayed: boolean;
  }[];
  const accepted = log.filter(
    (r) => r.method === "POST" && r.route === "/conversations/{conversation_id}/messages" && r.status === 202,
  );
  expect(accepted.filter((r) => !r.replayed)).toHaveLength(sent.filter((s) => s.rule !== null).length);
}

describe("late deliveries and clock steps", () => {
  it("answers inbounds delivered 30 s, 10 min and 1 h before the cursor, once each", async () => {
    const t0 = sb.clock.nowMs();
    const sent: Sent[] = [{ ...(await textIn(sb, "gotv", 1, "Where do I vote??")), rule: "where" }];
    expect(await planThenRun()).toEqual(new Set([sent[0]?.messageId]));

    await sb.clock.advance(MINUTE + 1_000);
    const late = [
      await textAt(2, "where do i vote", t0 - 30_000, "where"),
      await textAt(3, "¿Dónde voto?", t0 - 10 * MINUTE, "donde"),
      await textAt(4, "Who is this?", t0 - HOUR, "who"),
      // Late in a conversation already settled: its last_inbound_at does not move.
      await textAt(1, "who is this?", t0 - 30_000, "who"),
      await textAt(5, "STOP", t0 - 10 * MINUTE, null),
      await textAt(6, "ok thanks", t0 - HOUR, null),
    ];
    sent.push(...late);
    const answered = await planThenRun();
    expect(answered).toEqual(new Set(late.filter((s) => s.rule !== null).map((s) => s.messageId)));

    // Read back again a minute later: every one of them is in the record, none judged twice.
    await sb.clock.advance(MINUTE + 1_000);
    expect(await planThenRun()).toEqual(new Set());
    await expectAnsweredOnce(sent);
  });

  it("survives the API's clock stepping 2 h back, then 26 h forward", async () => {
    const sent: Sent[] = [{ ...(await textIn(sb, "gotv", 10, "Where do I vote??")), rule: "where" }];
    await planThenRun();

    // Back 2 h: the last pass and the cursor are now in the future.
    await sb.clock.advance(MINUTE + 1_000);
    await setClock(sb.clock.nowMs() - 2 * HOUR);
    const back = { ...(await textIn(sb, "gotv", 11, "where do i vote")), rule: "where" as const };
    sent.push(back);
    expect(await planThenRun()).toEqual(new Set([back.messageId]));
    await sb.clock.advance(MINUTE + 1_000);
    const after = { ...(await textIn(sb, "gotv", 12, "who is this")), rule: "who" as const };
    sent.push(after);
    expect(await planThenRun()).toEqual(new Set([after.messageId]));

    // Forward 26 h: an inbound received just before the step, not yet read, is 26 h old after it.
    await sb.clock.advance(MINUTE + 1_000);
    const before = { ...(await textIn(sb, "gotv", 13, "¿Dónde voto?")), rule: "donde" as const };
    await setClock(sb.clock.nowMs() + 26 * HOUR);
    const ahead = { ...(await textIn(sb, "gotv", 14, "Where do I vote??")), rule: "where" as const };
    sent.push(before, ahead);
    expect(await planThenRun()).toEqual(new Set([before.messageId, ahead.messageId]));

    await sb.clock.advance(MINUTE + 1_000);
    expect(await planThenRun()).toEqual(new Set());
    await expectAnsweredOnce(sent);
  });
});
