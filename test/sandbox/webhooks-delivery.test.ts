import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, CHILD_ORG, GOTV_REMINDER, ORG, sandbox } from "./helpers.js";
import {
  advance,
  events,
  fixtureWith,
  type Receiver,
  type SandboxEvent,
  scheduleProject,
  startReceiver,
  WARD3,
} from "./sending-fixture.js";

// Three recipients (the first four of Ward 3, one suppressed); Maria replies 40 s after delivery. Endpoints: the project's organization
// (sent + replied, answers 200), the same organization (delivered, always 500), a child
// organization (everything) and an unrelated root organization (everything): the last two hear nothing.
const OTHER_ORG = "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a99";
const SECRET = "whsec_parent_0123456789abcdef";
let sb: SandboxHandle;
let parent: Receiver;
let failing: Receiver;
let child: Receiver;
let other: Receiver;

beforeAll(async () => {
  [parent, failing, child, other] = await Promise.all([
    startReceiver(200),
    startReceiver(500),
    startReceiver(200),
    startReceiver(200),
  ]);
  const fixture = fixtureWith((f) => {
    const ward3 = f.contact_lists?.find((l) => l.id === WARD3);
    if (ward3) ward3.contacts = ward3.contacts?.slice(0, 4);
    f.organizations.push({ id: OTHER_ORG, name: "Elsewhere PAC" });
    const all = ["message.sent", "message.delivered", "message.failed", "message.replied", "link.clicked"];
    f.webhook_endpoints = [
      {
        id: "wh_parent",
        organization_id: ORG,
        url: parent.url,
        secret: SECRET,
        events: ["message.sent", "message.replied"],
      },
      {
        id: "wh_failing",
        organization_id: ORG,
        url: failing.url,
        secret: "whsec_failing_0123456789",
        events: ["message.delivered"],
      },
      {
        id: "wh_child",
        organization_id: CHILD_ORG,
        url: child.url,
        secret: "whsec_child_0123456789ab",
        events: all,
      },
      {
        id: "wh_other",
        organization_id: OTHER_ORG,
        url: other.url,
        secret: "whsec_other_0123456789ab",
        events: all,
      },
    ];
  });
  sb = await sandbox({ fixture });
  await admin(sb, "PATCH", "/simulation", {
    reply_rate: 0,
    failure_rate: 0,
    outcomes: { "+15035550110": { reply: "Thanks!", reply_after_ms: 40_000 } },
  });
  await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:00Z");
  await advance(sb, 0);
});

afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
  await Promise.all([parent, failing, child, other].map((r) => r.close()));
});

const header = (r: Receiver, i: number, name: string) => String(r.received[i]?.headers[name]);

describe("webhook delivery", () => {
  test("each subscribed event arrives signed over the exact raw bytes, with the contract's headers", async () => {
    expect(parent.received).toHaveLength(3);
    const sent = await events(sb, "?kind=message.sent");
    for (const [i, got] of parent.received.entries()) {
      const event = sent[i] as SandboxEvent;
      const expected = createHmac("sha256", SECRET).update(got.raw).digest("hex");
      const signature = header(parent, i, "x-webhook-signature");
      expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(timingSafeEqual(Buffer.from(signature), Buffer.from(`sha256=${expected}`))).toBe(true);
      expect(got.headers["content-type"]).toBe("application/json");
      expect(got.headers["x-event-type"]).toBe("message.sent");
      expect(got.headers["x-event-id"]).toBe(event.id);
      expect(got.headers["x-timestamp"]).toBe(String(Date.parse("2026-12-01T15:00:00Z") / 1000));
      expect(got.raw.toString("utf8")).toBe(JSON.stringify(event.payload));
      expect(JSON.parse(got.raw.toString("utf8"))).toMatchObject({
        status: "sent",
        project_id: GOTV_REMINDER,
      });
    }
  });

  test("subscriptions by kind are respected and the reply arrives with its payload", async () => {
    await advance(sb, 60_000);
    const kinds = parent.received.map((r) => r.headers["x-event-type"]);
    expect(kinds).toEqual(["message.sent", "message.sent", "message.sent", "message.replied"]);
    const reply = JSON.parse(parent.received[3]?.raw.toString("utf8") ?? "{}");
    expect(reply).toMatchObject({
      from: "+15035550110",
      text: "Thanks!",
      is_opt_out: false,
      is_opt_in: false,
    });
    expect(header(parent, 3, "x-timestamp")).toBe(String(Date.parse("2026-12-01T15:00:42Z") / 1000));
  });

  test("an endpoint of another organization (child or unrelated) receives nothing", () => {
    expect(child.received).toEqual([]);
    expect(other.received).toEqual([]);
  });

  test("a 500 is retried to exactly four attempts on the schedule, then missed", async () => {
    await advance(sb, 15 * 60_000);
    const deliveries = (await admin(sb, "GET", "/webhooks/deliveries?endpoint_id=wh_failing")).body.data;
    expect(deliveries).toHaveLength(3);
    for (const d of deliveries) {
      expect(d.state).toBe("missed");
      expect(d.next_attempt_at).toBeNull();
      expect(d.attempts).toEqual([
        { attempt: 1, at: "2026-12-01T15:00:02.000Z", status_code: 500, error: null },
        { attempt: 2, at: "2026-12-01T15:00:32.000Z", status_code: 500, error: null },
        { attempt: 3, at: "2026-12-01T15:02:32.000Z", status_code: 500, error: null },
        { attempt: 4, at: "2026-12-01T15:12:32.000Z", status_code: 500, error: null },
      ]);
    }
    expect(failing.received).toHaveLength(12);
    const ids = failing.received.map((r) => r.headers["x-event-id"]);
    expect(new Set(ids).size).toBe(3);
    const ok = (await admin(sb, "GET", "/webhooks/deliveries?endpoint_id=wh_parent")).body.data;
    expect(
      ok.every(
        (d: { state: string; attempts: unknown[] }) => d.state === "delivered" && d.attempts.length === 1,
      ),
    ).toBe(true);
  });

  test("flush answers once nothing is in flight", async () => {
    const r = await admin(sb, "POST", "/webhooks/flush");
    expect(r.body.data).toEqual({ in_flight: 0, pending: 0 });
  });
});
