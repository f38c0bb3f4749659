/** POST /_sandbox/inbound: inbound texts, message.replied, STOP/START keywords, conversation creation. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectConversationShape } from "./contract-shapes-conversations.js";
import { CHILD_PROJECT, CONV_ACTIVE, conversationSandbox, daysAgo } from "./conversations-world.js";
import { admin, api, CHILD_KEY, GOTV_FOLLOWUP, GOTV_REMINDER } from "./helpers.js";

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await conversationSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await admin(sb, "POST", "/reset");
});

const WARD_3_LIST = "e1000000-0000-4000-8000-000000000001";
const replied = () => sb.store.world.events.filter((e) => e.kind === "message.replied");
const listContact = (phone: string) =>
  sb.store.world.contactLists[WARD_3_LIST]?.contacts.find((c) => c.phone === phone);

describe("POST /_sandbox/inbound", () => {
  it("appends the inbound, moves last_inbound_at and emits message.replied with the contract's fields", async () => {
    await sb.clock.advance(90_000);
    const r = await admin(sb, "POST", "/inbound", { conversation_id: CONV_ACTIVE, text: "Where do I vote?" });
    expect(r.status).toBe(200);
    expect(r.body.data.created_conversation).toBe(false);
    const events = replied();
    expect(events).toHaveLength(1);
    const event = events[0];
    expectConversationShape("repliedPayload", event?.payload);
    expect(event?.payload).toEqual({
      conversation_id: CONV_ACTIVE,
      message_id: r.body.data.message.message_id,
      from: "+15035550110",
      to: "+15035550101",
      text: "Where do I vote?",
      is_opt_out: false,
      is_opt_in: false,
    });
    const list = await api(sb, "GET", "/conversations?limit=1");
    expect(list.body.data.data[0]).toMatchObject({
      conversation_id: CONV_ACTIVE,
      last_inbound_at: sb.clock.now().toISOString(),
      inbound_messages: 2,
    });
    const project = await admin(sb, "GET", `/projects/${GOTV_REMINDER}`);
    expect(project.body.data.counters.replies_received).toBe(1);
  });

  it("STOP opts the contact out (conversation and lists); a reply is then refused; START opts back in", async () => {
    const stop = await admin(sb, "POST", "/inbound", { conversation_id: CONV_ACTIVE, text: " stop " });
    expect(stop.status).toBe(200);
    expect(replied()[0]?.payload).toMatchObject({ is_opt_out: true, is_opt_in: false, text: " stop " });
    expect(stop.body.data.conversation).toMatchObject({ status: "opted_out", opted_out: true });
    expect(listContact("+15035550110")?.opted_out).toBe(true);
    const counters = (await admin(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data.counters;
    expect(counters).toMatchObject({ replies_received: 1, messages_opted_out: 1 });
    const refused = await api(sb, "POST", `/conversations/${CONV_ACTIVE}/messages`, {
      body: { text: "Sorry!" },
    });
    expect([refused.status, refused.body.code]).toEqual([409, "CONTACT_OPTED_OUT"]);

    const start = await admin(sb, "POST", "/inbound", { conversation_id: CONV_ACTIVE, text: "UNSTOP" });
    expect(replied()[1]?.payload).toMatchObject({ is_opt_out: false, is_opt_in: true });
    expect(start.body.data.conversation).toMatchObject({ status: "active", opted_out: false });
    expect(listContact("+15035550110")?.opted_out).toBe(false);
    const sent = await api(sb, "POST", `/conversations/${CONV_ACTIVE}/messages`, {
      body: { text: "Welcome back" },
    });
    expect(sent.status).toBe(202);
  });

  it("recognizes every opt-out synonym as the whole message only", async () => {
    for (const word of ["STOPALL", "Unsubscribe", "cancel", "END", "quit!", "STOP."]) {
      await admin(sb, "POST", "/inbound", { conversation_id: CONV_ACTIVE, text: word });
      expect(replied().at(-1)?.payload.is_opt_out, word).toBe(true);
      await admin(sb, "POST", "/inbound", { conversation_id: CONV_ACTIVE, text: "START" });
    }
    await admin(sb, "POST", "/inbound", { conversation_id: CONV_ACTIVE, text: "please stop by the office" });
    expect(replied().at(-1)?.payload.is_opt_out).toBe(false);
  });

  it("creates the conversation of a project send when none is in the world, then reuses it", async () => {
    const body = {
      project_id: GOTV_FOLLOWUP,
      contact_phone: "+15035550122",
      text: "Is it tomorrow?",
      at: daysAgo(0.25),
    };
    const first = await admin(sb, "POST", "/inbound", body);
    expect(first.status).toBe(200);
    expect(first.body.data.created_conversation).toBe(true);
    expect(first.body.data.conversation).toMatchObject({
      project_id: GOTV_FOLLOWUP,
      from: "+15035550101",
      to: "+15035550122",
      last_inbound_at: daysAgo(0.25),
      status: "active",
    });
    const second = await admin(sb, "POST", "/inbound", { ...body, text: "Thanks", at: undefined });
    expect(second.body.data.created_conversation).toBe(false);
    expect(second.body.data.conversation.conversation_id).toBe(first.body.data.conversation.conversation_id);
    expect(second.body.data.conversation.inbound_messages).toBe(2);
    const other = await admin(sb, "POST", "/inbound", { ...body, phone_number: "+15035550102" });
    expect(other.body.data.created_conversation).toBe(true);
    const list = await api(sb, "GET", `/conversations?project_id=${GOTV_FOLLOWUP}`);
    expect(list.body.data.data).toHaveLength(2);
  });

  it("a child project's inbound is visible to the child key", async () => {
    await sb.clock.advance(1000);
    await admin(sb, "POST", "/inbound", {
      project_id: CHILD_PROJECT,
      contact_phone: "+15035550130",
      text: "Hi",
    });
    const r = await api(sb, "GET", "/conversations?limit=1", { key: CHILD_KEY });
    expect(r.body.data.data[0]).toMatchObject({ project_id: CHILD_PROJECT, to: "+15035550130" });
  });

  it("refuses unknown projects and conversations, future times, foreign numbers and mixed targets", async () => {
    const cases: [unknown, number, string][] = [
      [{ project_id: "nope", contact_phone: "+15035550122", text: "x" }, 404, "PROJECT_NOT_FOUND"],
      [{ conversation_id: "nope", text: "x" }, 404, "CONVERSATION_NOT_FOUND"],
      [{ conversation_id: CONV_ACTIVE, text: "x", at: "2030-01-01T00:00:00Z" }, 400, "VALIDATION_ERROR"],
      [
        { project_id: GOTV_REMINDER, contact_phone: "+15035550122", phone_number: "+18445550103", text: "x" },
        400,
        "VALIDATION_ERROR",
      ],
      [{ conversation_id: CONV_ACTIVE, project_id: GOTV_REMINDER, text: "x" }, 400, "VALIDATION_ERROR"],
      [{ project_id: GOTV_REMINDER, text: "x" }, 400, "VALIDATION_ERROR"],
      [{ conversation_id: CONV_ACTIVE }, 400, "VALIDATION_ERROR"],
    ];
    for (const [body, status, code] of cases) {
      const r = await admin(sb, "POST", "/inbound", body);
      expect([r.status, r.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(replied()).toHaveLength(0);
  });
});
