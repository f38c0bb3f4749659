/**
 * Ids, keys and paths are data: nothing a request says reaches Object.prototype, the control routes
 * or another resource; one price table for sends and replies; one opt-out rule for every STOP.
 */
import { request } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { CONV_ACTIVE, conversationFixture } from "./conversations-world.js";
import { admin, api, EARLY_VOTE, GOTV_FOLLOWUP, GOTV_REMINDER, ORG, type Reply, sandbox } from "./helpers.js";
import { advance, messages, scheduleProject } from "./sending-fixture.js";

const MARIA = "+15035550110";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs).toEqual([]);
  await sb?.close();
  sb = undefined;
});

/** A request with the path exactly as written (fetch would normalise dot segments away). */
function raw(s: SandboxHandle, method: string, path: string): Promise<Reply> {
  const url = new URL(s.rootUrl);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { "x-api-key": "pc_live_sbx_rv_rw_7Hq2mX9vT4" },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
        });
        res.on("end", () =>
          done({
            status: res.statusCode ?? 0,
            headers: new Headers(),
            body: text === "" ? undefined : JSON.parse(text),
          }),
        );
      },
    );
    req.on("error", fail);
    req.end();
  });
}

describe("prototype keys are ordinary missing ids", () => {
  test("PATCH /_sandbox/projects/__proto__ is a 404 and leaves every later request unaffected", async () => {
    sb = await sandbox();
    for (const id of ["__proto__", "constructor", "hasOwnProperty"]) {
      const r = await admin(sb, "PATCH", `/projects/${id}`, { status: "scheduled" });
      expect(r.status, id).toBe(404);
    }
    expect(Object.hasOwn(Object.prototype, "status")).toBe(false);
    expect(({} as Record<string, unknown>).status).toBeUndefined();
    const pause = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: { reason: "storm" } });
    expect(pause.status).toBe(200);
    expect((await admin(sb, "POST", "/reset")).status).toBe(200);
    const again = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: { reason: "storm" } });
    expect(again.status).toBe(200);
  });

  test.each(["__proto__", "constructor", "hasOwnProperty", "toString"])(
    "GET /v1/projects/%s answers 404 PROJECT_NOT_FOUND",
    async (id) => {
      sb = await sandbox();
      const r = await api(sb, "GET", `/projects/${id}`);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("PROJECT_NOT_FOUND");
    },
  );

  test("an API key named like a prototype member is a 401", async () => {
    sb = await sandbox();
    for (const key of ["__proto__", "constructor"])
      expect((await api(sb, "GET", "/organizations", { key })).status).toBe(401);
  });

  test("a merge tag named like a prototype member renders as an empty field", async () => {
    sb = await sandbox();
    const edit = await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, {
      message_text: "Hi {{constructor}}{{toString}}!",
    });
    expect(edit.status).toBe(200);
    const sent = await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, {
      body: { test_contacts: [{ phone: "+15035550199", merge_values: {} }] },
    });
    expect(sent.status).toBe(202);
    const log = (await admin(sb, "GET", `/test-messages?project_id=${GOTV_REMINDER}`)).body.data;
    expect(log.at(-1).text.startsWith("Hi !")).toBe(true);
  });
});

describe("request paths are refused when they could escape their route", () => {
  test.each([
    ["GET", "/v1/projects/%2e%2e/organizations"],
    ["GET", "/v1/projects/%2E%2E/organizations"],
    ["GET", "/v1/../_sandbox/clock"],
    ["GET", "/v1/./organizations"],
    ["GET", "/v1//organizations"],
    ["GET", "/v1/projects/a%2fb"],
    ["GET", "/v1/projects/a%5Cb"],
    ["GET", "/v1/projects/%E0%A4%A"],
  ])("%s %s answers 400 with the standard error body", async (method, path) => {
    sb = await sandbox();
    const r = await raw(sb, method, path);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(typeof r.body.error).toBe("string");
  });

  test("ordinary paths, a trailing slash and query strings still route", async () => {
    sb = await sandbox();
    expect((await raw(sb, "GET", "/v1/organizations")).status).toBe(200);
    expect((await raw(sb, "GET", "/v1/organizations/")).status).toBe(200);
    expect((await raw(sb, "GET", `/v1/projects/${GOTV_REMINDER}?x=..`)).status).toBe(200);
    expect((await raw(sb, "GET", "/_sandbox/clock")).status).toBe(200);
  });
});

describe("one price table for project sends and replies", () => {
  test("a changed SMS segment price bills project sends and replies alike", async () => {
    sb = await sandbox({ fixture: conversationFixture() });
    const patched = await admin(sb, "PATCH", "/simulation", {
      sms_segment_price_e4: 250,
      reply_rate: 0,
      failure_rate: 0,
    });
    expect(patched.status).toBe(200);
    await scheduleProject(sb, GOTV_FOLLOWUP, "2026-12-01T15:00:00Z");
    await advance(sb, 10_000);
    const sent = await messages(sb, `?project_id=${GOTV_FOLLOWUP}`);
    expect(sent.length).toBeGreaterThan(0);
    for (const m of sent) expect(m.cost_e4).toBe(m.segments * 250);

    const before = sb.store.world.organizations[ORG]?.balance_cents ?? 0;
    const costBefore = sb.store.world.projects[GOTV_REMINDER]?.counters.actual_cost_e4 ?? 0;
    const reply = await api(sb, "POST", `/conversations/${CONV_ACTIVE}/messages`, {
      body: { text: "See you there" },
    });
    expect(reply.status).toBe(202);
    // One GSM-7 segment at 2.5 cents: the project's cost counts 250 e4, the balance is charged 3 cents.
    expect(sb.store.world.projects[GOTV_REMINDER]?.counters.actual_cost_e4).toBe(costBefore + 250);
    expect(sb.store.world.organizations[ORG]?.balance_cents).toBe(before - 3);
  });

  test("toll-free numbers have their own rate for both", async () => {
    sb = await sandbox({ fixture: conversationFixture() });
    await admin(sb, "PATCH", "/simulation", {
      toll_free_segment_price_e4: 400,
      reply_rate: 0,
      failure_rate: 0,
    });
    await admin(sb, "PATCH", `/projects/${GOTV_FOLLOWUP}`, {
      phone_number_ids: ["a1000000-0000-4000-8000-000000000003"],
    });
    await scheduleProject(sb, GOTV_FOLLOWUP, "2026-12-01T15:00:00Z");
    await advance(sb, 10_000);
    const sent = await messages(sb, `?project_id=${GOTV_FOLLOWUP}`);
    expect(sent.length).toBeGreaterThan(0);
    for (const m of sent) expect(m.cost_e4).toBe(m.segments * 400);
  });
});

describe("one opt-out rule for simulated and injected STOP replies", () => {
  const mariasConversations = (s: SandboxHandle) =>
    Object.values(s.store.world.conversations).filter(
      (c) => c.to === MARIA && s.store.world.projects[c.project_id]?.organization_id === ORG,
    );

  test("an injected STOP opts the contact out of every conversation of the organization", async () => {
    sb = await sandbox({ fixture: conversationFixture() });
    await admin(sb, "PATCH", "/simulation", {
      reply_rate: 0,
      failure_rate: 0,
      outcomes: { [MARIA]: { reply: "Thanks" } },
    });
    await scheduleProject(sb, GOTV_FOLLOWUP, "2026-12-01T15:00:00Z");
    await advance(sb, 5 * 60_000);
    expect(mariasConversations(sb).length).toBeGreaterThan(1);
    const stop = await admin(sb, "POST", "/inbound", { conversation_id: CONV_ACTIVE, text: "STOP" });
    expect(stop.status).toBe(200);
    for (const c of mariasConversations(sb)) expect(c.opted_out, c.conversation_id).toBe(true);
  });

  test("a simulated STOP reply does exactly the same", async () => {
    sb = await sandbox({ fixture: conversationFixture() });
    await admin(sb, "PATCH", "/simulation", {
      reply_rate: 0,
      failure_rate: 0,
      outcomes: { [MARIA]: { reply: "STOP" } },
    });
    expect(sb.store.world.conversations[CONV_ACTIVE]?.opted_out).toBe(false);
    await scheduleProject(sb, GOTV_FOLLOWUP, "2026-12-01T15:00:00Z");
    await advance(sb, 5 * 60_000);
    const conversations = mariasConversations(sb);
    expect(conversations.length).toBeGreaterThan(1);
    for (const c of conversations) expect(c.opted_out, c.conversation_id).toBe(true);
    const refused = await api(sb, "POST", `/conversations/${CONV_ACTIVE}/messages`, {
      body: { text: "Sorry!" },
    });
    expect(refused.body.code).toBe("CONTACT_OPTED_OUT");
  });
});
