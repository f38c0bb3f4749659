/** GET /conversations and GET /conversations/{id}/messages over HTTP: filters, windows, paging, scope. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import { expectConversationShape } from "./contract-shapes-conversations.js";
import {
  CHILD_PROJECT,
  CONV_85_DAYS,
  CONV_ACTIVE,
  CONV_CHILD,
  CONV_DELETED,
  CONV_NO_NUMBER,
  CONV_OLD,
  CONV_OPTED_OUT,
  CONV_POOR,
  CONV_RELEASED,
  CONV_TEST,
  conversationSandbox,
  daysAgo,
} from "./conversations-world.js";
import { admin, api, CHILD_KEY } from "./helpers.js";

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await conversationSandbox(120);
});
afterAll(() => sb.close());
beforeEach(async () => {
  await admin(sb, "POST", "/reset");
});

const idsOf = (body: { data: { data: { conversation_id: string }[] } }): string[] =>
  body.data.data.map((c) => c.conversation_id);

async function collect(query: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q: string = `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const r = await api(sb, "GET", `/conversations?${q}`);
    expect(r.status).toBe(200);
    expectConversationShape("conversationPage", r.body);
    ids.push(...idsOf(r.body));
    expect(r.body.data.has_more).toBe(r.body.data.next_cursor !== null);
    cursor = r.body.data.next_cursor;
    pages += 1;
  } while (cursor !== null);
  return { ids, pages };
}

describe("GET /conversations", () => {
  it("lists conversations with an inbound, newest inbound first, default window 7 days, test ones hidden", async () => {
    const r = await api(sb, "GET", "/conversations?limit=20");
    expect(r.status).toBe(200);
    expectConversationShape("conversationPage", r.body);
    const ids = idsOf(r.body);
    expect(ids.slice(0, 2)).toEqual([CONV_ACTIVE, CONV_CHILD]);
    for (const id of [CONV_RELEASED, CONV_NO_NUMBER, CONV_DELETED, CONV_OPTED_OUT, CONV_POOR])
      expect(ids).toContain(id);
    for (const id of [CONV_OLD, CONV_85_DAYS, CONV_TEST]) expect(ids).not.toContain(id);
    const times = r.body.data.data.map((c: { last_inbound_at: string }) => c.last_inbound_at);
    expect([...times].sort().reverse()).toEqual(times);
    const active = r.body.data.data[0];
    expect(active).toMatchObject({
      from: "+15035550101",
      to: "+15035550110",
      contact: { phone_number: "+15035550110" },
      status: "active",
      opted_out: false,
      is_test: false,
      inbound_messages: 1,
      outbound_messages: 1,
      last_inbound_at: daysAgo(1),
      first_message_at: daysAgo(1.5),
    });
    const statuses = Object.fromEntries(
      r.body.data.data.map((c: { conversation_id: string; status: string }) => [c.conversation_id, c.status]),
    );
    expect(statuses[CONV_OPTED_OUT]).toBe("opted_out");
    expect(statuses[CONV_RELEASED]).toBe("inactive");
    expect(statuses[CONV_NO_NUMBER]).toBe("inactive");
    expect(statuses[CONV_DELETED]).toBe("inactive");
  });

  it("include_test shows test conversations; other values are 400", async () => {
    const r = await api(sb, "GET", "/conversations?include_test=true&limit=1");
    expect(idsOf(r.body)).toEqual([CONV_TEST]);
    expect(r.body.data.data[0].is_test).toBe(true);
    const bad = await api(sb, "GET", "/conversations?include_test=yes");
    expect(bad.status).toBe(400);
    expectShape("validationError", bad.body);
  });

  it("updated_since: 90 days back is allowed, 91 is 400, malformed is 400", async () => {
    const ninety = await api(sb, "GET", `/conversations?limit=200&updated_since=${daysAgo(90)}`);
    expect(ninety.status).toBe(200);
    expect(idsOf(ninety.body)).toEqual(expect.arrayContaining([CONV_OLD, CONV_85_DAYS]));
    const since = await api(sb, "GET", `/conversations?limit=200&updated_since=${daysAgo(1)}`);
    expect(idsOf(since.body)).toEqual([CONV_ACTIVE]);
    const ninetyOne = await api(sb, "GET", `/conversations?updated_since=${daysAgo(91)}`);
    expect(ninetyOne.status).toBe(400);
    expectShape("validationError", ninetyOne.body);
    expect(ninetyOne.body.details[0].path).toEqual(["updated_since"]);
    for (const bad of ["yesterday", "2026-11-30", "2026-11-30T10:00:00"]) {
      const r = await api(sb, "GET", `/conversations?updated_since=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("project_id filters; a child key sees only its subtree", async () => {
    const byProject = await api(sb, "GET", `/conversations?project_id=${CHILD_PROJECT}`);
    expect(idsOf(byProject.body)).toEqual([CONV_CHILD]);
    const child = await api(sb, "GET", "/conversations?include_test=true&limit=200", { key: CHILD_KEY });
    expect(idsOf(child.body)).toEqual([CONV_CHILD]);
  });

  it("limit 1 to 200: 200 is fine, 0, 201 and non-integers are 400", async () => {
    expect((await api(sb, "GET", "/conversations?limit=200")).status).toBe(200);
    for (const bad of ["0", "201", "ten", "2.5"]) {
      const r = await api(sb, "GET", `/conversations?limit=${bad}`);
      expect(r.status, bad).toBe(400);
      expectShape("validationError", r.body);
    }
  });

  it("cursor pages reach the end without repeats; next_cursor is null on the last page", async () => {
    const all = await api(sb, "GET", `/conversations?limit=200&updated_since=${daysAgo(30)}`);
    const expected = idsOf(all.body);
    expect(expected.length).toBe(128);
    expect(all.body.data.has_more).toBe(false);
    const paged = await collect(`updated_since=${daysAgo(30)}`, 50);
    expect(paged.pages).toBe(3);
    expect(paged.ids).toEqual(expected);
    const exact = await collect(`updated_since=${daysAgo(30)}`, 64);
    expect(exact.ids).toEqual(expected);
  });

  it("paging stays stable while new inbounds arrive; the next poll picks them up", async () => {
    const first = await api(sb, "GET", "/conversations?limit=3");
    const seen = idsOf(first.body);
    const top = first.body.data.data[0].last_inbound_at;
    const later = await api(sb, "GET", "/conversations?limit=200");
    const movedId = idsOf(later.body)[10] as string;
    await sb.clock.advance(60_000);
    expect(
      (await admin(sb, "POST", "/inbound", { conversation_id: movedId, text: "What time?" })).status,
    ).toBe(200);
    expect(
      (await admin(sb, "POST", "/inbound", { conversation_id: seen[0], text: "And where?" })).status,
    ).toBe(200);
    let cursor = first.body.data.next_cursor as string | null;
    while (cursor !== null) {
      const r = await api(sb, "GET", `/conversations?limit=3&cursor=${encodeURIComponent(cursor)}`);
      expect(r.status).toBe(200);
      seen.push(...idsOf(r.body));
      cursor = r.body.data.next_cursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(movedId);
    const poll = await api(sb, "GET", `/conversations?updated_since=${encodeURIComponent(top)}`);
    expect(idsOf(poll.body).slice(0, 2).sort()).toEqual([movedId, CONV_ACTIVE].sort());
  });

  it("rejects invalid, oversized and mismatched cursors", async () => {
    for (const bad of ["nope", "eyJraW5kIjoiY29udmVyc2F0aW9ucyJ9.abc", "x".repeat(4097)]) {
      const r = await api(sb, "GET", `/conversations?cursor=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body.details[0].path).toEqual(["cursor"]);
    }
    const page = await api(sb, "GET", "/conversations?limit=2");
    const cursor = encodeURIComponent(page.body.data.next_cursor);
    expect((await api(sb, "GET", `/conversations?cursor=${cursor}&limit=2`)).status).toBe(200);
    expect((await api(sb, "GET", `/conversations?cursor=${cursor}&include_test=true`)).status).toBe(400);
    const thread = await api(sb, "GET", `/conversations/${CONV_ACTIVE}/messages?cursor=${cursor}`);
    expect(thread.status).toBe(400);
  });
});

describe("GET /conversations/{id}/messages", () => {
  it("returns the thread newest first, both directions, in cursor pages", async () => {
    await sb.clock.advance(1000);
    await admin(sb, "POST", "/inbound", { conversation_id: CONV_ACTIVE, text: "One more thing" });
    const before = JSON.stringify(sb.store.world.conversations[CONV_ACTIVE]);
    const r = await api(sb, "GET", `/conversations/${CONV_ACTIVE}/messages`);
    expect(r.status).toBe(200);
    expectConversationShape("threadPage", r.body);
    const messages = r.body.data.data;
    expect(messages.map((m: { direction: string }) => m.direction)).toEqual([
      "inbound",
      "inbound",
      "outbound",
    ]);
    expect(messages[0]).toMatchObject({ text: "One more thing", status: "received", sent_at: null });
    expect(messages[0].received_at).toBe(sb.clock.now().toISOString());
    expect(messages[2]).toMatchObject({ status: "delivered", sent_at: daysAgo(1.5), error_code: null });
    expect(messages[2]).not.toHaveProperty("received_at");
    expect(r.body.data).toMatchObject({ has_more: false, next_cursor: null });
    expect(JSON.stringify(sb.store.world.conversations[CONV_ACTIVE])).toBe(before);

    const texts: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await api(sb, "GET", `/conversations/${CONV_ACTIVE}/messages?limit=1${q}`);
      expectConversationShape("threadPage", page.body);
      texts.push(...page.body.data.data.map((m: { text: string }) => m.text));
      cursor = page.body.data.next_cursor;
    } while (cursor !== null);
    expect(texts).toEqual(messages.map((m: { text: string }) => m.text));
    expect((await api(sb, "GET", `/conversations/${CONV_ACTIVE}/messages?limit=201`)).status).toBe(400);
  });

  it("unknown and out-of-scope conversations are 404 CONVERSATION_NOT_FOUND", async () => {
    const unknown = await api(sb, "GET", "/conversations/c0000000-0000-4000-8000-999999999999/messages");
    expect(unknown.status).toBe(404);
    expectShape("standardError", unknown.body);
    expect(unknown.body.code).toBe("CONVERSATION_NOT_FOUND");
    const outOfScope = await api(sb, "GET", `/conversations/${CONV_ACTIVE}/messages`, { key: CHILD_KEY });
    expect(outOfScope.status).toBe(404);
    expect(outOfScope.body.code).toBe("CONVERSATION_NOT_FOUND");
    const own = await api(sb, "GET", `/conversations/${CONV_CHILD}/messages`, { key: CHILD_KEY });
    expect(own.status).toBe(200);
  });
});
