/**
 * `webhooks listen` beyond the sandbox's happy path, with deliveries made by hand (signed by the
 * sandbox's signer) and a listener clock fixed at the example world's start: the text view, the
 * `--events` filter, the edge refusals, Ctrl-C, and the problems that stop it from starting. The
 * record and the outbox: durable-ack.test.ts and outbox.test.ts.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type ListenTuning,
  runWebhooksListen,
  startWebhooksListener,
  type WebhooksListenFlags,
} from "../../cli/commands/webhooks-listen.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { signBody } from "../../src/sandbox/webhooks/signature.js";
import { type CapturedIo, captureIo } from "../helpers/run-cli.js";
import { type Receiver, startReceiver } from "../sandbox/sending-fixture.js";
import {
  expectValid,
  jsonLines,
  post,
  SECRET,
  SECRET_ENV,
  type Sent,
  START_MS,
  unixSeconds,
} from "./harness.js";

const clock = (): number => START_MS;
let dir = "";
let ok: Receiver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "campaignctl-webhooks-"));
  ok = await startReceiver(200);
});

afterAll(async () => {
  await ok.close();
});

let states = 0;
const flags = (over: Partial<WebhooksListenFlags> = {}): WebhooksListenFlags => ({
  port: 0,
  host: "127.0.0.1",
  secretEnv: ["WH_SECRET"],
  state: `state-${++states}`,
  ...over,
});

async function start(over: Partial<WebhooksListenFlags> = {}, tuning: ListenTuning = {}, out?: CapturedIo) {
  const io = out ?? captureIo({ env: SECRET_ENV, cwd: dir, clock });
  const started = await startWebhooksListener(flags(over), io, tuning);
  if (!started.ok) throw new Error(`listener did not start:\n${io.err()}`);
  return { io, listener: started.listener };
}

/** A delivery of a message event, signed with the endpoint secret at the listener's clock. */
function delivery(n: number, status = "sent", kind = `message.${status}`): Sent {
  const body = Buffer.from(
    JSON.stringify({
      message_id: `msg-${n}`,
      project_id: "9a000000-0000-4000-8000-000000000001",
      conversation_id: null,
      from: "+15035550101",
      to: "+15035550110",
      status,
      error_code: status === "failed" ? "30006" : null,
      segments: 1,
      sent_at: "2026-12-01T15:00:00.000Z",
      delivered_at: null,
      failed_at: null,
    }),
  );
  return {
    headers: {
      "content-type": "application/json",
      "x-webhook-signature": signBody(SECRET, body),
      "x-event-type": kind,
      "x-event-id": `evt_${n}`,
      "x-timestamp": unixSeconds(START_MS),
    },
    body,
  };
}

/** `d` with one byte more at the end of its body (a final newline or space breaks the signature). */
function tampered(d: Sent): Sent {
  return { headers: d.headers, body: Buffer.concat([d.body, Buffer.from(" ")]) };
}

function reply(n: number, text: string, optOut: boolean): Sent {
  const body = Buffer.from(
    JSON.stringify({
      conversation_id: "c-1",
      message_id: `in-${n}`,
      from: "+15035550110",
      to: "+15035550101",
      text,
      is_opt_out: optOut,
      is_opt_in: false,
    }),
  );
  return {
    headers: {
      "content-type": "application/json",
      "x-webhook-signature": signBody(SECRET, body),
      "x-event-type": "message.replied",
      "x-event-id": `evt_reply_${n}`,
      "x-timestamp": unixSeconds(START_MS),
    },
    body,
  };
}

describe("webhooks listen", () => {
  test("the text view: one line per event, rejections with their code and hint, forwards with status and time, totals at the end", async () => {
    const { io, listener } = await start({ forwardTo: ok.url, state: "text-view" });
    // One at a time, so the lines come in this order (a refusal prints at once, an event after its work).
    for (const d of [delivery(1), reply(1, "STOP\u001b[2J", true), tampered(delivery(2))]) {
      await post(listener.url, d);
      await listener.drained();
      await listener.forwardIdle();
    }
    await listener.stop();
    const text = io.out().replace(/in \d+ ms/g, "in N ms");
    expect(text).toBe(
      [
        `campaignctl webhooks: listening on ${listener.url} (POST, any path)`,
        "  secrets: WH_SECRET (from the environment)",
        "  events:  every kind",
        "  dedupe:  text-view/dedupe.jsonl (0 events remembered)",
        `  forward: ${ok.url} (0 waiting from earlier runs)`,
        "Press Ctrl-C to stop.",
        "2026-12-01T15:00:00Z  message.sent       evt_1  sent +15035550101 -> +15035550110 (message msg-1)",
        "2026-12-01T15:00:00Z    -> forwarded evt_1 (attempt 1): 200 in N ms",
        '2026-12-01T15:00:00Z  message.replied    evt_reply_1  +15035550110 -> +15035550101: "STOP\\u001b[2J" (opt-out)',
        "2026-12-01T15:00:00Z    -> forwarded evt_reply_1 (attempt 1): 200 in N ms",
        "2026-12-01T15:00:00Z  rejected 401  evt_2  webhooks.bad-signature: The signature matches none of the secrets (WH_SECRET)",
        "    hint: Check the endpoint's signing secret in the environment variable. The signature covers the exact bytes sent: reformatting the JSON, or a final newline an editor added, breaks it",
        "stopped: 2 accepted, 1 rejected (0 duplicates, 0 replays), 0 ignored; forwarded 2, 0 failed attempts, 0 to dead-letter, 0 left in the outbox",
        "",
      ].join("\n"),
    );
    // No control character of a delivery reaches the terminal.
    expect(io.out()).not.toContain("\u001b");
  });

  test("--events: other kinds are verified, answered 200 and ignored (not printed, not remembered)", async () => {
    const { io, listener } = await start({ json: true, events: ["message.replied,message.failed"] });
    const sent = await post(listener.url, delivery(3));
    const failed = await post(listener.url, delivery(4, "failed"));
    await listener.drained();
    const forged = await post(listener.url, tampered(delivery(5)));
    expect([sent.status, failed.status, forged.status]).toEqual([200, 200, 401]);
    expect(sent.body).toEqual({ received: true, ignored: true });
    expect(listener.counts).toMatchObject({ accepted: 1, ignored: 1, rejected: 1 });
    const lines = jsonLines(io.out());
    expect(lines[0]).toMatchObject({ type: "listening", events: ["message.replied", "message.failed"] });
    expect(lines.slice(1).map((l) => [l.type, l.event_id])).toEqual([
      ["accepted", "evt_4"],
      ["rejected", "evt_5"],
    ]);
    await listener.stop();
  });

  test("a request that is not POST gets 405; a body over 1 MiB gets 413", async () => {
    const { io, listener } = await start({ json: true });
    const get = await fetch(listener.url);
    const big = await fetch(listener.url, { method: "POST", body: Buffer.alloc(1024 * 1024 + 1, 32) }).catch(
      () => undefined,
    );
    await listener.stop();
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    if (big !== undefined) expect(big.status).toBe(413);
    const codes = jsonLines(io.out())
      .filter((l) => l.type === "rejected")
      .map((l) => (l.diagnostic as { code: string }).code);
    expect(codes).toEqual(["webhooks.method-not-allowed", "webhooks.body-too-large"]);
  });

  test("runs until its stop signal (Ctrl-C), then finishes the queued work and exits 0", async () => {
    let stop: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const captured = captureIo({ env: SECRET_ENV, cwd: dir, clock });
    let listening: () => void = () => {};
    const serving = new Promise<void>((resolve) => {
      listening = resolve;
    });
    // The terminal says when the first line (listening) is written.
    const io = {
      ...captured,
      stdout: (text: string) => {
        captured.stdout(text);
        listening();
      },
    };
    const running = runWebhooksListen(flags({ json: true }), io, stopped);
    await serving;
    const url = jsonLines(io.out())[0]?.url as string;
    expect((await post(url, delivery(30))).status).toBe(200);
    stop();
    expect(exitCodeOf(await running)).toBe(0);
    expect(jsonLines(io.out()).map((l) => l.type)).toEqual(["listening", "accepted", "stopped"]);
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe("webhooks listen does not start", () => {
  test.each([
    {
      name: "a secret variable that is not set",
      over: { secretEnv: ["WH_SECRET", "WH_MISSING"] },
      code: "webhooks.no-secret",
      says: "The environment variable WH_MISSING is not set",
    },
    {
      name: "no --secret-env and no CAMPAIGNCTL_WEBHOOK_SECRET",
      over: { secretEnv: undefined },
      code: "webhooks.no-secret",
      says: "CAMPAIGNCTL_WEBHOOK_SECRET is not set",
    },
    {
      name: "a misspelt event kind",
      over: { events: ["message.replyed"] },
      code: "webhooks.unknown-event-kind",
      says: "did you mean message.replied?",
    },
    {
      name: "plain http to a host that is not loopback",
      over: { forwardTo: "http://handler.example.com/hooks" },
      code: "webhooks.insecure-forward-url",
      says: "plain http to handler.example.com",
    },
    {
      name: "an outbox limit without --forward-to",
      over: { forwardMaxAttempts: 3 },
      code: "webhooks.forward-flag-alone",
      says: "--forward-max-attempts limits the outbox of --forward-to, which is not given",
    },
    {
      name: "a forward URL that is not one",
      over: { forwardTo: "handler:3000" },
      code: "webhooks.bad-forward-url",
      says: "not http or https",
    },
  ])("with $name: $code", async ({ over, code, says }) => {
    const io = captureIo({ env: SECRET_ENV, cwd: dir, clock });
    const started = await startWebhooksListener(flags({ ...over, json: true }), io);
    expect(started.ok).toBe(false);
    if (started.ok) return;
    expect(exitCodeOf(started.outcome)).toBe(1);
    const document = JSON.parse(io.out());
    expectValid("error-result", document);
    expect(document.diagnostics.map((d: { code: string }) => d.code)).toEqual([code]);
    expect(io.err()).toContain(code);
    expect(io.err()).toContain(says);
    expect(io.err()).not.toContain(SECRET);
  });

  test("on a port in use: webhooks.listen-failed", async () => {
    const { listener } = await start();
    const io = captureIo({ env: SECRET_ENV, cwd: dir, clock });
    const started = await startWebhooksListener(flags({ port: Number(new URL(listener.url).port) }), io);
    await listener.stop();
    expect(started.ok).toBe(false);
    expect(io.err()).toContain("webhooks.listen-failed");
    expect(io.err()).toContain("pick another with --port");
  });
});
