import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import { admin, api, EARLY_VOTE, GOTV_FOLLOWUP, GOTV_REMINDER, sandbox, VOLUNTEERS } from "./helpers.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

const contacts = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ phone: `+1555${String(1000000 + i).padStart(7, "0")}` }));

async function setStatus(s: SandboxHandle, id: string, status: string): Promise<void> {
  expect((await admin(s, "PATCH", `/projects/${id}`, { status })).status).toBe(200);
}

describe("POST /projects/{id}/test", () => {
  test.each([
    [1, 202],
    [50, 202],
    [0, 400],
    [51, 400],
  ])("%i test contacts -> %i", async (n, status) => {
    sb = await sandbox();
    const r = await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, {
      body: { test_contacts: contacts(n) },
    });
    expect(r.status).toBe(status);
    if (status === 202) {
      expectShape("testSent", r.body);
      expect(r.body.data.test_messages).toHaveLength(n);
    } else {
      expectShape("validationError", r.body);
      expect(r.body.details[0].path).toEqual(["test_contacts"]);
    }
  });

  test.each([
    ["+15035550150", 202],
    ["+14165550150", 202],
    ["5035550150", 400],
    ["+445035550150", 400],
    ["+1503555015", 400],
    ["+10035550150", 400],
  ])("phone %s -> %i", async (phone, status) => {
    sb = await sandbox();
    const r = await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, {
      body: { test_contacts: [{ phone }] },
    });
    expect(r.status).toBe(status);
    if (status === 400) expect(r.body.details[0].path).toEqual(["test_contacts", 0, "phone"]);
  });

  test("renders by the contract's two rules, masks sent_to, records messages and moves to awaiting_test", async () => {
    sb = await sandbox();
    const before = sb.store.world.projects[GOTV_REMINDER]?.updated_at ?? "";
    const r = await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, {
      body: {
        test_contacts: [
          {
            phone: "+15035550150",
            merge_values: { first_name: "Maria", polling_place: "Riverside Community Center" },
          },
          { phone: "+15035550151", merge_values: { polling_place: "Lincoln Elementary Gym" } },
          { phone: "+15035550152" },
        ],
      },
    });
    expect(r.status).toBe(202);
    expect(r.body.data.status).toBe("awaiting_test");
    expect(r.body.data.test_messages.map((m: { sent_to: string }) => m.sent_to)).toEqual([
      "+1503****150",
      "+1503****151",
      "+1503****152",
    ]);
    const sent = (await admin(sb, "GET", `/test-messages?project_id=${GOTV_REMINDER}`)).body.data;
    expect(sent.map((m: { text: string }) => m.text)).toEqual([
      "Hi Maria, the Ward 3 runoff is tomorrow, Tue Dec 8. Polls are open 7am-7pm at Riverside Community Center. Reply STOP to opt out",
      "Hi friend, the Ward 3 runoff is tomorrow, Tue Dec 8. Polls are open 7am-7pm at Lincoln Elementary Gym. Reply STOP to opt out",
      "Hi Maria, the Ward 3 runoff is tomorrow, Tue Dec 8. Polls are open 7am-7pm at Riverside Community Center. Reply STOP to opt out",
    ]);
    expect(sent.map((m: { rendered_from: string }) => m.rendered_from)).toEqual([
      "merge_values",
      "merge_values",
      "sample_contact",
    ]);
    const live = await api(sb, "GET", `/projects/${GOTV_REMINDER}`);
    expect(live.body.data.status).toBe("awaiting_test");
    expect(Date.parse(live.body.data.updated_at)).toBeGreaterThan(Date.parse(before));
  });

  test("the organization default and the opt-out footer apply; no list renders tags as empty fields", async () => {
    sb = await sandbox();
    await admin(sb, "PATCH", `/projects/${VOLUNTEERS}`, {
      message_text: "Hey {{first_name}} at {{zip}}!",
      contact_list_ids: [],
    });
    await api(sb, "POST", `/projects/${VOLUNTEERS}/test`, {
      body: { test_contacts: [{ phone: "+15035550150" }] },
    });
    const [message] = (await admin(sb, "GET", `/test-messages?project_id=${VOLUNTEERS}`)).body.data;
    expect(message).toMatchObject({
      text: "Hey friend at !\nSTOP=END",
      rendered_from: "empty",
      from: "+18445550103",
    });
  });

  test.each([
    ["draft", 202],
    ["awaiting_test", 202],
    ["ready", 202],
    ["scheduled", 400],
    ["active", 400],
    ["paused", 400],
    ["completed", 400],
  ])("from %s -> %i", async (status, code) => {
    sb = await sandbox();
    await setStatus(sb, GOTV_REMINDER, status);
    const r = await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, {
      body: { test_contacts: contacts(1) },
    });
    expect(r.status).toBe(code);
    expect(sb.store.world.projects[GOTV_REMINDER]?.status).toBe(code === 202 ? "awaiting_test" : status);
  });

  test("with autoApproveTests the project is ready right after", async () => {
    sb = await sandbox({ autoApproveTests: true });
    const r = await api(sb, "POST", `/projects/${GOTV_FOLLOWUP}/test`, {
      body: { test_contacts: contacts(1) },
    });
    expect(r.body.data.status).toBe("awaiting_test");
    expect((await api(sb, "GET", `/projects/${GOTV_FOLLOWUP}`)).body.data.status).toBe("ready");
  });

  test("the dashboard approval moves awaiting_test to ready, and only that", async () => {
    sb = await sandbox();
    expect((await admin(sb, "POST", `/projects/${GOTV_REMINDER}/approve`)).status).toBe(400);
    await api(sb, "POST", `/projects/${GOTV_REMINDER}/test`, { body: { test_contacts: contacts(1) } });
    const approved = await admin(sb, "POST", `/projects/${GOTV_REMINDER}/approve`);
    expect(approved.body.data.status).toBe("ready");
  });
});

describe("POST /projects/{id}/schedule", () => {
  const body = {
    scheduled_at: "2026-12-07T10:00:00-06:00",
    scheduled_timezone: "America/Chicago",
    daily_cap_bypass: true,
  };

  test("schedules a ready project and stores time, zone and bypass", async () => {
    sb = await sandbox();
    await setStatus(sb, GOTV_REMINDER, "ready");
    const r = await api(sb, "POST", `/projects/${GOTV_REMINDER}/schedule`, { body });
    expect(r.status).toBe(200);
    expectShape("scheduled", r.body);
    expect(r.body.data).toMatchObject({
      status: "scheduled",
      scheduled_at: "2026-12-07T16:00:00.000Z",
      daily_cap_bypass: true,
    });
    const live = (await api(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data;
    expect(live).toMatchObject({
      status: "scheduled",
      scheduled_at: "2026-12-07T16:00:00.000Z",
      scheduled_timezone: "America/Chicago",
      daily_cap_bypass: true,
    });
  });

  test.each([
    ["draft", { ...body }, 400],
    ["ready", { ...body, scheduled_timezone: "Europe/Paris" }, 400],
    ["ready", { ...body, scheduled_at: "2026-12-07T10:00:00" }, 400],
    // Offsets and forms that are not an ISO 8601 date-time with offset are a 400 VALIDATION_ERROR
    // (the project stays ready, nothing scheduled), never a 500 that says the outcome is unknown.
    ["ready", { ...body, scheduled_at: "2026-12-07T10:00:00-06" }, 400],
    ["ready", { ...body, scheduled_at: "2026-12-07T10:00:00-0600" }, 400],
    ["ready", { ...body, scheduled_at: "2026-12-07 10:00:00-06:00" }, 400],
    ["ready", { ...body, scheduled_at: "2026-12-31T23:59:60Z" }, 400],
    ["ready", { scheduled_timezone: "America/Chicago" }, 400],
    ["ready", { ...body, extra: 1 }, 400],
    ["ready", { scheduled_at: "2020-01-01T00:00:00Z", scheduled_timezone: "Pacific/Honolulu" }, 200],
  ])("from %s with %j -> %i", async (status, payload, code) => {
    sb = await sandbox();
    await setStatus(sb, GOTV_REMINDER, status);
    const r = await api(sb, "POST", `/projects/${GOTV_REMINDER}/schedule`, { body: payload });
    expect(r.status).toBe(code);
    if (code === 400) {
      expectShape("validationError", r.body);
      expect((await api(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data.status).toBe(status);
      expect((await admin(sb, "GET", "/effects?kind=schedule")).body.data.counts.schedule ?? 0).toBe(0);
    } else expect(r.body.data.daily_cap_bypass).toBe(false);
  });
});

describe("POST /projects/{id}/pause", () => {
  test.each([
    [undefined, 200, "manual"],
    ["x", 200, "x"],
    ["r".repeat(100), 200, "r".repeat(100)],
    ["", 400, null],
    ["r".repeat(101), 400, null],
  ])("reason %j -> %i", async (reason, code, stored) => {
    sb = await sandbox();
    const r = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, {
      body: reason === undefined ? undefined : { reason },
    });
    expect(r.status).toBe(code);
    const live = (await api(sb, "GET", `/projects/${EARLY_VOTE}`)).body.data;
    expect(live.pause_reason).toBe(stored);
    expect(live.status).toBe(code === 200 ? "paused" : "scheduled");
  });

  test.each([
    ["scheduled", 200],
    ["active", 200],
    ["paused", 200],
    ["draft", 400],
    ["awaiting_test", 400],
    ["ready", 400],
    ["completed", 400],
  ])("from %s -> %i", async (status, code) => {
    sb = await sandbox();
    await setStatus(sb, EARLY_VOTE, status);
    const r = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, {
      body: { reason: "polling place change" },
    });
    expect(r.status).toBe(code);
    if (code === 200)
      expect(r.body.data).toEqual({
        project_id: EARLY_VOTE,
        status: "paused",
        pause_reason: "polling place change",
      });
  });

  test("pausing again succeeds without changing updated_at, and the effect log says so", async () => {
    sb = await sandbox();
    await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: { reason: "polling place change" } });
    const first = (await api(sb, "GET", `/projects/${EARLY_VOTE}`)).body.data.updated_at;
    await sb.clock.advance(1000);
    expect(
      (await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: { reason: "polling place change" } }))
        .status,
    ).toBe(200);
    expect((await api(sb, "GET", `/projects/${EARLY_VOTE}`)).body.data.updated_at).toBe(first);
    const effects = (await admin(sb, "GET", `/effects?project_id=${EARLY_VOTE}`)).body.data;
    expect(effects.counts).toEqual({ pause: 1 });
    expect(effects.effects.map((e: { changed: boolean }) => e.changed)).toEqual([true, false]);
  });
});
