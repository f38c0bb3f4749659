/** POST /conversations/{id}/messages over HTTP: rules in the contract's order, billing, events, faults. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import { expectConversationShape } from "./contract-shapes-conversations.js";
import {
  CONV_ACTIVE,
  CONV_CHILD,
  CONV_DELETED,
  CONV_NO_NUMBER,
  CONV_OPTED_OUT,
  CONV_POOR,
  CONV_RELEASED,
  conversationSandbox,
  POOR_ORG,
} from "./conversations-world.js";
import { admin, api, CHILD_KEY, CHILD_ORG, GOTV_REMINDER, ORG } from "./helpers.js";

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await conversationSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await admin(sb, "DELETE", "/faults");
  await admin(sb, "POST", "/reset");
});

const reply = (id: string, body: unknown, options: { key?: string; idempotencyKey?: string } = {}) =>
  api(sb, "POST", `/conversations/${id}/messages`, { body, ...options });
const balance = (org: string): number => sb.store.world.organizations[org]?.balance_cents ?? Number.NaN;
const threadLength = (id: string): number => sb.store.world.conversations[id]?.messages.length ?? -1;
const eventsFor = (messageId: string) =>
  sb.store.world.events.filter((e) => e.payload.message_id === messageId).map((e) => e.kind);

describe("POST /conversations/{id}/messages", () => {
  it("queues the normalized reply (202), charges per segment, then sent and delivered or failed with events", async () => {
    const before = balance(ORG);
    const r = await reply(CONV_ACTIVE, { text: "“See you” – at 7\u00a0pm… don’t be late" });
    expect(r.status).toBe(202);
    expectConversationShape("replyResult", r.body);
    expect(r.body.data).toMatchObject({
      conversation_id: CONV_ACTIVE,
      project_id: GOTV_REMINDER,
      from: "+15035550101",
      to: "+15035550110",
      text: '"See you" - at 7 pm... don\'t be late',
      created_at: sb.clock.now().toISOString(),
    });
    expect(balance(ORG)).toBe(before - 1);
    const id = r.body.data.message_id;
    const top = async () =>
      (await api(sb, "GET", `/conversations/${CONV_ACTIVE}/messages?limit=1`)).body.data.data[0];
    expect(await top()).toMatchObject({
      message_id: id,
      direction: "outbound",
      status: "queued",
      sent_at: null,
    });
    expect(eventsFor(id)).toEqual([]);
    await sb.clock.advance(1000);
    expect(await top()).toMatchObject({ status: "sent", sent_at: sb.clock.now().toISOString() });
    expect(eventsFor(id)).toEqual(["message.sent"]);
    await sb.clock.advance(3000);
    const final = await top();
    expect(["delivered", "failed"]).toContain(final.status);
    expect(eventsFor(id)).toEqual(["message.sent", `message.${final.status}`]);
    for (const e of sb.store.world.events.filter((x) => x.payload.message_id === id)) {
      expect(e.payload.conversation_id).toBe(CONV_ACTIVE);
      expect(e.organization_id).toBe(ORG);
      expect(Object.keys(e.payload).sort()).toEqual(
        ["conversation_id", "delivered_at", "error_code", "failed_at", "from", "message_id", "project_id"]
          .concat(["segments", "sent_at", "status", "to"])
          .sort(),
      );
    }
    const outbox = await admin(sb, "GET", `/events?organization_id=${ORG}`);
    const kinds = outbox.body.data
      .filter((e: { payload: { message_id?: string } }) => e.payload.message_id === id)
      .map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(["message.sent", `message.${final.status}`]);
    expect(sb.store.world.events.some((e) => e.kind === "message.replied")).toBe(false);
    const list = await api(sb, "GET", "/conversations?limit=1");
    expect(list.body.data.data[0]).toMatchObject({ conversation_id: CONV_ACTIVE, outbound_messages: 2 });
  });

  it("bills multi-segment and UCS-2 text by segment to the project's organization", async () => {
    const before = balance(ORG);
    expect((await reply(CONV_ACTIVE, { text: "a".repeat(161) })).status).toBe(202);
    expect(balance(ORG)).toBe(before - 2);
    expect((await reply(CONV_ACTIVE, { text: `${"b".repeat(69)}🗳` })).status).toBe(202);
    expect(balance(ORG)).toBe(before - 4);
    const childBefore = balance(CHILD_ORG);
    expect((await reply(CONV_CHILD, { text: "Hi" }, { key: CHILD_KEY })).status).toBe(202);
    expect(balance(CHILD_ORG)).toBe(childBefore - 1);
    expect(balance(ORG)).toBe(before - 4);
  });

  it("refuses in the contract's order with its codes, charging nothing", async () => {
    const cases: [string, number, string][] = [
      [CONV_RELEASED, 409, "PHONE_NUMBER_UNAVAILABLE"],
      [CONV_OPTED_OUT, 409, "CONTACT_OPTED_OUT"],
      [CONV_NO_NUMBER, 409, "CONVERSATION_NOT_SENDABLE"],
      [CONV_DELETED, 409, "PROJECT_DELETED"],
      [CONV_POOR, 402, "INSUFFICIENT_BALANCE"],
    ];
    const balances = () => Object.values(sb.store.world.organizations).map((o) => o.balance_cents);
    const before = balances();
    const events = sb.store.world.events.length;
    for (const [id, status, code] of cases) {
      const length = threadLength(id);
      const r = await reply(id, { text: "Thanks!" });
      expect([r.status, r.body.code], id).toEqual([status, code]);
      expectShape("standardError", r.body);
      expect(threadLength(id)).toBe(length);
    }
    expect(balances()).toEqual(before);
    expect(sb.store.world.events.length).toBe(events);
    const poor = await reply(CONV_POOR, { text: "x".repeat(200) });
    expect(poor.body.details).toEqual({
      organization_id: POOR_ORG,
      balance_cents: 0,
      required_cents: 2,
      shortfall_cents: 2,
      segments: 2,
      encoding: "GSM-7",
      rate_cents_per_segment: 1,
    });
  });

  it("a project deleted in the dashboard makes its conversations unsendable", async () => {
    expect((await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, { deleted: true })).status).toBe(200);
    const r = await reply(CONV_ACTIVE, { text: "Hello" });
    expect([r.status, r.body.code]).toEqual([409, "PROJECT_DELETED"]);
    const project = await api(sb, "GET", `/projects/${GOTV_REMINDER}`);
    expect(project.body.data).not.toHaveProperty("deleted");
  });

  it("unknown and out-of-scope conversations are 404 CONVERSATION_NOT_FOUND", async () => {
    const unknown = await reply("c0000000-0000-4000-8000-999999999999", { text: "Hi" });
    expect([unknown.status, unknown.body.code]).toEqual([404, "CONVERSATION_NOT_FOUND"]);
    const before = balance(ORG);
    const outOfScope = await reply(CONV_ACTIVE, { text: "Hi" }, { key: CHILD_KEY });
    expect([outOfScope.status, outOfScope.body.code]).toEqual([404, "CONVERSATION_NOT_FOUND"]);
    expect(balance(ORG)).toBe(before);
  });

  it("validates the body: text only, 1 to 1,600 characters", async () => {
    const unknownProperty = await reply(CONV_ACTIVE, { text: "Hi", media_urls: ["https://x.example/a.png"] });
    expect(unknownProperty.status).toBe(400);
    expectShape("validationError", unknownProperty.body);
    expect(unknownProperty.body.details[0].code).toBe("unrecognized_keys");
    for (const body of [{}, { text: "" }, { text: 5 }, { text: "   " }, { text: "x".repeat(1601) }]) {
      const r = await reply(CONV_ACTIVE, body);
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
    const max = await reply(CONV_ACTIVE, { text: "x".repeat(1600) });
    expect(max.status).toBe(202);
    expect(max.body.data.text).toHaveLength(1600);
  });

  it("an idempotent replay returns the stored 202 and charges once", async () => {
    const before = balance(ORG);
    const length = threadLength(CONV_ACTIVE);
    const key = "reply-0001-abcdefgh";
    const first = await reply(CONV_ACTIVE, { text: "Polls close at 7" }, { idempotencyKey: key });
    const second = await reply(CONV_ACTIVE, { text: "Polls close at 7" }, { idempotencyKey: key });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.headers.get("x-idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(balance(ORG)).toBe(before - 1);
    expect(threadLength(CONV_ACTIVE)).toBe(length + 1);
  });

  it("a 503 SEND_ENQUEUE_FAILED fault sends and charges nothing; the retry goes out", async () => {
    await admin(sb, "POST", "/faults", {
      spec: "POST /conversations/{conversation_id}/messages: status(503) n=1",
    });
    const before = balance(ORG);
    const length = threadLength(CONV_ACTIVE);
    const key = "reply-0002-abcdefgh";
    const failed = await reply(CONV_ACTIVE, { text: "Retry me" }, { idempotencyKey: key });
    expect([failed.status, failed.body.code]).toEqual([503, "SEND_ENQUEUE_FAILED"]);
    expect(balance(ORG)).toBe(before);
    expect(threadLength(CONV_ACTIVE)).toBe(length);
    const retry = await reply(CONV_ACTIVE, { text: "Retry me" }, { idempotencyKey: key });
    expect(retry.status).toBe(202);
    expect(balance(ORG)).toBe(before - 1);
  });

  it("outcomes are deterministic by seed", async () => {
    const outcomes = async (): Promise<string[]> => {
      await admin(sb, "POST", "/reset");
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await reply(CONV_ACTIVE, { text: `Note ${i}` })).body.data.message_id);
      await sb.clock.advance(5000);
      return ids.map((id) => eventsFor(id).join(","));
    };
    const a = await outcomes();
    expect(await outcomes()).toEqual(a);
  });

  it("a failed reply carries its carrier error in the thread and in message.failed", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 150; i++)
      ids.push((await reply(CONV_ACTIVE, { text: `Reminder ${i}` })).body.data.message_id);
    await sb.clock.advance(5000);
    const failed = sb.store.world.events.filter((e) => e.kind === "message.failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(15);
    const event = failed[0];
    expect(event?.payload).toMatchObject({
      conversation_id: CONV_ACTIVE,
      status: "failed",
      error_code: "30003",
    });
    const thread = await api(sb, "GET", `/conversations/${CONV_ACTIVE}/messages?limit=200`);
    const message = thread.body.data.data.find(
      (m: { message_id: string }) => m.message_id === event?.payload.message_id,
    );
    expect(message).toMatchObject({ status: "failed", error_code: "30003", delivered_at: null });
    expect(message.sent_at).not.toBeNull();
    const delivered = sb.store.world.events.filter((e) => e.kind === "message.delivered").length;
    expect(delivered + failed.length).toBe(ids.length);
  });
});
