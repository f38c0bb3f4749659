import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, GOTV_FOLLOWUP, GOTV_REMINDER, ORG, sandbox } from "./helpers.js";
import { advance, events, messages, project, scheduleProject, WARD3 } from "./sending-fixture.js";

const MARIA = "+15035550110";
const JAMES = "+15035550111";
const DANIEL = "+15035550113";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs).toEqual([]);
  await sb?.close();
  sb = undefined;
});

async function scripted(s: SandboxHandle): Promise<void> {
  const r = await admin(s, "PATCH", "/simulation", {
    reply_rate: 0,
    failure_rate: 0,
    outcomes: {
      [MARIA]: { reply: "STOP", reply_after_ms: 60_000 },
      [JAMES]: { reply: "Where do I vote?", reply_after_ms: 90_000 },
      [DANIEL]: { fail: "30006" },
    },
  });
  expect(r.status).toBe(200);
}

describe("replies", () => {
  test("a reply opens a conversation and emits message.replied with the contract's fields", async () => {
    sb = await sandbox();
    await scripted(sb);
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:00Z");
    await advance(sb, 10_000);
    // No conversation of the GOTV reminder yet (the example world's are the runoff notice's).
    const conversations = Object.values(sb.store.world.conversations);
    expect(conversations.filter((c) => c.project_id === GOTV_REMINDER)).toEqual([]);
    await advance(sb, 2 * 60_000);

    const replied = await events(sb, "?kind=message.replied");
    expect(replied).toHaveLength(2);
    const [stop, question] = replied;
    expect(Object.keys(stop?.payload ?? {}).sort()).toEqual(
      ["conversation_id", "from", "is_opt_in", "is_opt_out", "message_id", "text", "to"].sort(),
    );
    const sentToMaria = (await messages(sb, `?to=${encodeURIComponent(MARIA)}`))[0];
    expect(stop).toMatchObject({
      organization_id: ORG,
      created_at: "2026-12-01T15:01:02.000Z",
      payload: { from: MARIA, to: sentToMaria?.from, text: "STOP", is_opt_out: true, is_opt_in: false },
    });
    expect(question?.payload).toMatchObject({ from: JAMES, text: "Where do I vote?", is_opt_out: false });

    const conversation = sb.store.world.conversations[String(stop?.payload.conversation_id)];
    expect(conversation).toMatchObject({
      project_id: GOTV_REMINDER,
      organization_id: ORG,
      from: sentToMaria?.from,
      to: MARIA,
      opted_out: true,
      is_test: false,
    });
    expect(conversation?.messages.map((m) => [m.direction, m.status, m.text])).toEqual([
      ["outbound", "delivered", sentToMaria?.text],
      ["inbound", "received", "STOP"],
    ]);
    expect(conversation?.messages[1]?.message_id).toBe(stop?.payload.message_id);
    expect(sentToMaria?.conversation_id).toBe(conversation?.conversation_id);

    const { counters } = await project(sb, GOTV_REMINDER);
    expect(counters).toMatchObject({
      replies_received: 2,
      messages_opted_out: 1,
      messages_failed: 1,
      messages_delivered: 37,
    });
    const failed = await events(sb, "?kind=message.failed");
    expect(failed.map((e) => e.payload)).toEqual([
      expect.objectContaining({
        to: DANIEL,
        status: "failed",
        error_code: "30006",
        project_id: GOTV_REMINDER,
      }),
    ]);
  });

  test("STOP opts the contact out, and a later project leaves it out", async () => {
    sb = await sandbox();
    await scripted(sb);
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:00Z");
    await advance(sb, 5 * 60_000);
    const ward3 = sb.store.world.contactLists[WARD3];
    expect(ward3?.contacts.find((c) => c.phone === MARIA)?.opted_out).toBe(true);
    expect(ward3?.contacts.find((c) => c.phone === JAMES)?.opted_out).toBe(false);

    await scheduleProject(sb, GOTV_FOLLOWUP, "2026-12-01T15:05:00Z");
    await advance(sb, 10_000);
    expect(await project(sb, GOTV_FOLLOWUP)).toMatchObject({ status: "completed", total_recipients: 37 });
    const followUp = await messages(sb, `?project_id=${GOTV_FOLLOWUP}`);
    expect(followUp.map((m) => m.to)).not.toContain(MARIA);
    expect(followUp.map((m) => m.to)).toContain(JAMES);
  });
});
