/**
 * `webhooks listen` against the sandbox's real webhook sender, over HTTP on loopback: every delivery
 * of a simulated send is accepted, remembered and forwarded once; tampered, stale and replayed
 * deliveries (captured from the same sender by a second endpoint) are refused with their codes; a
 * listener restarted on the same state directory does not forward an event twice.
 */

import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type RunningListener,
  startWebhooksListener,
  type WebhooksListenFlags,
} from "../../cli/commands/webhooks-listen.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { signBody } from "../../src/sandbox/webhooks/signature.js";
import { foldRecord } from "../../src/webhooks/record.js";
import { type CapturedIo, captureIo } from "../helpers/run-cli.js";
import { admin, GOTV_REMINDER } from "../sandbox/helpers.js";
import { events, type Receiver, type SandboxEvent, startReceiver } from "../sandbox/sending-fixture.js";
import {
  jsonLines,
  OLD_SECRET,
  post,
  resendable,
  runSend,
  SECRET,
  SECRET_ENV,
  type Sent,
  START_MS,
  sendingSandbox,
  unixSeconds,
} from "./harness.js";

let sb: SandboxHandle | undefined;
/** The listener's clock is the sandbox's virtual clock (its start before the sandbox runs). */
const clock = (): number => sb?.clock.nowMs() ?? START_MS;
let dir = "";
let io: CapturedIo;
let listener: RunningListener;
let capture: Receiver;
let handler: Receiver;
let sent: SandboxEvent[] = [];

const flags = (over: Partial<WebhooksListenFlags> = {}): WebhooksListenFlags => ({
  port: 0,
  host: "127.0.0.1",
  secretEnv: ["WH_SECRET", "WH_SECRET_OLD"],
  json: true,
  forwardTo: handler.url,
  state: "state",
  ...over,
});

async function start(
  over: Partial<WebhooksListenFlags> = {},
): Promise<{ io: CapturedIo; listener: RunningListener }> {
  const out = captureIo({ env: SECRET_ENV, cwd: dir, clock });
  const started = await startWebhooksListener(flags(over), out);
  if (!started.ok) throw new Error(`listener did not start:\n${out.err()}`);
  return { io: out, listener: started.listener };
}

/** A captured delivery of `kind`, to replay or tamper with. */
function captured(kind: string, index = 0): Sent {
  const r = capture.received.filter((x) => x.headers["x-event-type"] === kind)[index];
  if (r === undefined) throw new Error(`no captured ${kind} delivery`);
  return resendable(r);
}

const fresh = (d: Sent, headers: Record<string, string> = {}): Sent => ({
  headers: { ...d.headers, "x-timestamp": unixSeconds(clock()), ...headers },
  body: d.body,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "campaignctl-webhooks-"));
  [capture, handler] = await Promise.all([startReceiver(200), startReceiver(200)]);
  ({ io, listener } = await start());
  sb = await sendingSandbox([`${listener.url}/hooks`, capture.url]);
  await runSend(sb);
  await listener.drained();
  await listener.forwardIdle();
  sent = await events(sb);
});

afterAll(async () => {
  expect(sb?.bugs).toEqual([]);
  await listener.stop();
  await sb?.close();
  await Promise.all([capture.close(), handler.close()]);
});

describe("webhooks listen, fed by the sandbox's webhook sender", () => {
  test("every delivery is answered 200 at the first attempt and accepted once, with its event id and kind", async () => {
    expect(new Set(sent.map((e) => e.kind))).toEqual(
      new Set(["message.sent", "message.delivered", "message.failed", "message.replied"]),
    );
    expect(sent).toHaveLength(8);
    const deliveries = (await admin(sb as SandboxHandle, "GET", "/webhooks/deliveries?endpoint_id=wh_0")).body
      .data as { event_id: string; state: string; attempts: { status_code: number }[] }[];
    expect(deliveries).toHaveLength(8);
    for (const d of deliveries) {
      expect(d.state).toBe("delivered");
      expect(d.attempts.map((a) => a.status_code)).toEqual([200]);
    }
    const accepted = jsonLines(io.out()).filter((l) => l.type === "accepted");
    expect(accepted.map((l) => [l.event_id, l.event_type]).sort()).toEqual(
      sent.map((e) => [e.id, e.kind]).sort(),
    );
    for (const line of accepted) {
      const event = sent.find((e) => e.id === line.event_id);
      expect(line.payload).toEqual(event?.payload);
      expect(line.secret).toBe("WH_SECRET");
      expect(line.body_key).toBe(`${line.event_type}:${event?.payload.message_id}`);
    }
  });

  test("each accepted event is forwarded once, byte for byte with its headers, and the handler's status is shown", () => {
    expect(handler.received).toHaveLength(8);
    for (const r of handler.received) {
      const original = capture.received.find((c) => c.headers["x-event-id"] === r.headers["x-event-id"]);
      expect(r.raw.equals(original?.raw ?? Buffer.alloc(0))).toBe(true);
      expect(r.headers["x-webhook-signature"]).toBe(original?.headers["x-webhook-signature"]);
      expect(r.headers["x-event-type"]).toBe(original?.headers["x-event-type"]);
      expect(r.headers["content-type"]).toBe("application/json");
    }
    const forwarded = jsonLines(io.out()).filter((l) => l.type === "forwarded");
    expect(forwarded).toHaveLength(8);
    for (const line of forwarded) {
      expect(line).toMatchObject({ ok: true, status: 200, error: null, url: handler.url, diagnostic: null });
      expect(line.ms).toBeGreaterThanOrEqual(0);
    }
  });

  test("the dedupe record on disk holds every accepted event", () => {
    const record = foldRecord(readFileSync(join(dir, "state", "dedupe.jsonl")));
    expect(record.events.map((e) => e.entry.event_id).sort()).toEqual(sent.map((e) => e.id).sort());
    // Every one printed, every one forwarded: nothing left to print or to forward on a restart.
    expect(record.unprinted).toEqual([]);
    expect(record.outbox.size).toBe(0);
  });

  test.each([
    {
      name: "a changed byte of the body",
      make: () => {
        const d = captured("message.delivered");
        const body = Buffer.from(d.body);
        body[body.indexOf("1")] = "2".charCodeAt(0);
        return fresh({ headers: d.headers, body }, { "x-event-id": "evt_changed_byte" });
      },
      status: 401,
      code: "webhooks.bad-signature",
    },
    {
      name: "a body signed with another secret",
      make: () => {
        const d = captured("message.sent");
        return fresh(d, {
          "x-webhook-signature": signBody("whsec_someone_else_012345", d.body),
          "x-event-id": "evt_wrong",
        });
      },
      status: 401,
      code: "webhooks.bad-signature",
    },
    {
      name: "no signature",
      make: () => {
        const { "x-webhook-signature": _, ...headers } = captured("message.sent").headers;
        return fresh({ headers, body: captured("message.sent").body });
      },
      status: 401,
      code: "webhooks.missing-signature",
    },
    {
      name: "a timestamp 5 minutes and 1 second old",
      make: () =>
        fresh(captured("message.failed"), {
          "x-timestamp": unixSeconds(clock() - 301_000),
          "x-event-id": "evt_old",
        }),
      status: 401,
      code: "webhooks.stale-timestamp",
    },
    {
      name: "a timestamp 5 minutes and 1 second ahead",
      make: () =>
        fresh(captured("message.failed"), {
          "x-timestamp": unixSeconds(clock() + 301_000),
          "x-event-id": "evt_ahead",
        }),
      status: 401,
      code: "webhooks.stale-timestamp",
    },
    {
      name: "a replayed event id (a retry of a delivery already handled)",
      make: () => fresh(captured("message.replied")),
      status: 200,
      code: "webhooks.duplicate-event",
    },
    {
      name: "a replay of a signed body under a new event id and a fresh timestamp",
      make: () => fresh(captured("message.replied", 1), { "x-event-id": "evt_replayed_body" }),
      status: 409,
      code: "webhooks.replayed-body",
    },
    {
      name: "an X-Event-Type changed on the way (it is not signed)",
      make: () =>
        fresh(captured("message.delivered"), {
          "x-event-type": "message.failed",
          "x-event-id": "evt_retyped",
        }),
      status: 400,
      code: "webhooks.type-mismatch",
    },
  ])("refuses $name: $status $code, and nothing is forwarded", async ({ make, status, code }) => {
    const before = handler.received.length;
    const answer = await post(listener.url, make());
    await listener.drained();
    await listener.forwardIdle();
    expect(answer.status).toBe(status);
    const last = jsonLines(io.out()).at(-1);
    expect(last).toMatchObject({ type: "rejected", status, diagnostic: { code } });
    expect(handler.received).toHaveLength(before);
  });

  test("a new event signed with the previous secret is accepted during a rotation, and says which secret signed it", async () => {
    const body = Buffer.from(
      JSON.stringify({ ...sent[0]?.payload, message_id: "rotation-message-1", status: "sent" }),
      "utf8",
    );
    const answer = await post(listener.url, {
      headers: {
        "content-type": "application/json",
        "x-webhook-signature": signBody(OLD_SECRET, body),
        "x-event-type": "message.sent",
        "x-event-id": "evt_rotation_1",
        "x-timestamp": unixSeconds(clock()),
      },
      body,
    });
    await listener.drained();
    await listener.forwardIdle();
    expect(answer).toEqual({ status: 200, body: { received: true, event_id: "evt_rotation_1" } });
    const accepted = jsonLines(io.out())
      .filter((l) => l.type === "accepted")
      .at(-1);
    expect(accepted).toMatchObject({ event_id: "evt_rotation_1", secret: "WH_SECRET_OLD" });
    expect(handler.received.at(-1)?.headers["x-event-id"]).toBe("evt_rotation_1");
  });

  test("no output names a secret's value", () => {
    expect(io.out()).not.toContain(SECRET);
    expect(io.out()).not.toContain(OLD_SECRET);
    expect(io.err()).toBe("");
  });

  test("a listener restarted on the same state directory forwards no event twice", async () => {
    const port = Number(new URL(listener.url).port);
    await listener.stop();
    const stopped = jsonLines(io.out()).at(-1);
    expect(stopped).toMatchObject({ type: "stopped", accepted: 9, forwarded: 9, forward_failed: 0 });
    ({ io, listener } = await start({ port }));
    expect(jsonLines(io.out())[0]).toMatchObject({ type: "listening", remembered: 9 });
    const before = handler.received.length;
    // A retry of a delivery handled before the restart (same event id), and a replay under a new id.
    const retry = await post(listener.url, fresh(captured("message.sent", 2)));
    const replay = await post(
      listener.url,
      fresh(captured("message.delivered", 1), { "x-event-id": "evt_after_restart" }),
    );
    await listener.drained();
    await listener.forwardIdle();
    expect([retry.status, replay.status]).toEqual([200, 409]);
    expect(handler.received).toHaveLength(before);
    // A new event from the sandbox (a contact texts in) goes through once.
    const sandbox = sb as SandboxHandle;
    const inbound = await admin(sandbox, "POST", "/inbound", {
      project_id: GOTV_REMINDER,
      contact_phone: "+15035550111",
      text: "Where do I vote?",
    });
    expect(inbound.status).toBe(200);
    await admin(sandbox, "POST", "/webhooks/flush");
    await listener.drained();
    await listener.forwardIdle();
    expect(handler.received).toHaveLength(before + 1);
    expect(JSON.parse(handler.received.at(-1)?.raw.toString("utf8") ?? "{}")).toMatchObject({
      text: "Where do I vote?",
    });
    expect(
      jsonLines(io.out()).map((l) => [l.type, (l.diagnostic as { code?: string } | null | undefined)?.code]),
    ).toEqual([
      ["listening", undefined],
      ["rejected", "webhooks.duplicate-event"],
      ["rejected", "webhooks.replayed-body"],
      ["accepted", undefined],
      ["forwarded", undefined],
    ]);
  });
});
