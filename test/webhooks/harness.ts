/**
 * What the webhook listener tests share: a sandbox at the example world's fixed start whose webhook
 * endpoints point at given URLs, a send that makes every event kind of a project send, posting a
 * delivery by hand, and the schemas of what the listener prints.
 */

import type { SandboxHandle } from "../../src/sandbox/index.js";
import { signBody } from "../../src/sandbox/webhooks/signature.js";
import {
  type ListenerNote,
  Receiver,
  type ReceiverOptions,
  type ReceiverStore,
} from "../../src/webhooks/receiver.js";
import type { Delivery } from "../../src/webhooks/types.js";
import { schemaErrors } from "../helpers/schemas.js";
import { admin, GOTV_REMINDER, ORG, sandbox } from "../sandbox/helpers.js";
import { advance, fixtureWith, type Received, scheduleProject, WARD3 } from "../sandbox/sending-fixture.js";

/** The example fixture's `clock.start`: every sandbox here starts there, never at the real now. */
export const START_MS = Date.parse("2026-12-01T15:00:00Z");
/** The endpoints' signing secret (fixture data). */
export const SECRET = "whsec_listener_0123456789abcdef";
/** The secret before a rotation, also accepted by the listener under test. */
export const OLD_SECRET = "whsec_previous_0123456789abcd";
/** The environment the listener reads its secrets from. */
export const SECRET_ENV = { NO_COLOR: "1", WH_SECRET: SECRET, WH_SECRET_OLD: OLD_SECRET };

const ALL_KINDS = ["message.sent", "message.delivered", "message.failed", "message.replied", "link.clicked"];

/**
 * A sandbox whose root organization has one endpoint per URL (every kind, {@link SECRET}). GOTV
 * Reminder goes to the first four contacts of Ward 3 (one suppressed: three recipients); +15035550110
 * replies STOP after 40 s, +15035550111 replies "Thanks!" after 30 s, +15035550113 fails 30006.
 */
export async function sendingSandbox(urls: readonly string[]): Promise<SandboxHandle> {
  const fixture = fixtureWith((f) => {
    const ward3 = f.contact_lists?.find((l) => l.id === WARD3);
    if (ward3) ward3.contacts = ward3.contacts?.slice(0, 4);
    f.webhook_endpoints = urls.map((url, i) => ({
      id: `wh_${i}`,
      organization_id: ORG,
      url,
      secret: SECRET,
      events: ALL_KINDS,
    }));
  });
  const sb = await sandbox({ fixture });
  await admin(sb, "PATCH", "/simulation", {
    reply_rate: 0,
    failure_rate: 0,
    outcomes: {
      "+15035550110": { reply: "STOP", reply_after_ms: 40_000 },
      "+15035550111": { reply: "Thanks!", reply_after_ms: 30_000 },
      "+15035550113": { fail: "30006" },
    },
  });
  return sb;
}

/** Sends GOTV Reminder at the start and runs the virtual clock until every event was delivered. */
export async function runSend(sb: SandboxHandle): Promise<void> {
  await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:00Z");
  await advance(sb, 0);
  await advance(sb, 60_000);
  await admin(sb, "POST", "/webhooks/flush");
}

/** A delivery to send by hand: header names lower case, the exact body bytes. */
export interface Sent {
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** A received delivery as one to send again (the headers of the contract only). */
export function resendable(r: Received): Sent {
  const headers: Record<string, string> = {};
  for (const name of ["content-type", "x-webhook-signature", "x-event-type", "x-event-id", "x-timestamp"]) {
    const value = r.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  return { headers, body: r.raw };
}

/** POSTs `delivery` to `url` over loopback; the status and the parsed answer. */
export async function post(
  url: string,
  delivery: Sent,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: "POST", headers: delivery.headers, body: delivery.body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Unix seconds of `ms`, as X-Timestamp carries them. */
export const unixSeconds = (ms: number): string => String(Math.floor(ms / 1000));

/** Delivery `n` (`evt_n`, a message.sent event), signed with {@link SECRET} at {@link START_MS}. */
export function signedDelivery(n: number): Delivery {
  const body = Buffer.from(JSON.stringify({ message_id: `m-${n}`, status: "sent" }));
  return {
    headers: {
      "content-type": "application/json",
      "x-webhook-signature": signBody(SECRET, body),
      "x-event-type": "message.sent",
      "x-event-id": `evt_${n}`,
      "x-timestamp": unixSeconds(START_MS),
    },
    body,
  };
}

/**
 * A delivery signed with `secret` whose body carries `padding` bytes more, stamped with this
 * machine's clock (for a listener run as its own process, which judges timestamps by its clock).
 */
export function paddedDelivery(
  secret: string,
  id: string,
  padding: number,
): { headers: Record<string, string>; body: Buffer } {
  const body = Buffer.from(
    JSON.stringify({ message_id: `m-${id}`, status: "sent", note: "x".repeat(padding) }),
  );
  return {
    headers: {
      "content-type": "application/json",
      "x-webhook-signature": signBody(secret, body),
      "x-event-type": "message.sent",
      "x-event-id": id,
      "x-timestamp": String(Math.floor(Date.now() / 1000)),
    },
    body,
  };
}

/** Throws unless `document` is valid against `schemas/<name>.schema.json`. */
export function expectValid(
  name: "webhook-listen-line" | "webhook-verify-result" | "webhook-dead-letter-line" | "error-result",
  document: unknown,
): void {
  const errors = schemaErrors(name, document);
  if (errors.length > 0)
    throw new Error(`not a valid ${name} document:\n${errors.join("\n")}\n${JSON.stringify(document)}`);
}

/** The JSON lines a `--json` listener printed, each checked against its schema. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const line = JSON.parse(l) as Record<string, unknown>;
      expectValid("webhook-listen-line", line);
      return line;
    });
}

/**
 * A receiver on `store` as the tests use it: the listener's secret, its clock at START_MS, every
 * event kind, no outbox, notes to `note`, a job that throws fails the test; `options` adds or
 * replaces the rest (queue limit, printed).
 */
export function testReceiver(
  store: ReceiverStore,
  note: (note: ListenerNote) => void = () => {},
  options: Partial<Pick<ReceiverOptions, "queueLimit" | "printed">> = {},
): Receiver {
  return new Receiver({
    secrets: [{ name: "WH_SECRET", value: SECRET }],
    clock: () => START_MS,
    events: null,
    store,
    outbox: null,
    note,
    onBug: (error) => {
      throw error;
    },
    ...options,
  });
}
