/**
 * Forwarding at least once (issue 23, item 5): the outbox retries a failing handler with backoff,
 * honouring Retry-After, tells it the attempt number (X-Campaignctl-Attempt), resumes after a
 * restart with the same counts, and moves an event to the dead-letter file only once its attempt
 * or age limit has passed. The listener's clock and the outbox's sleep are virtual: the test moves
 * time, no real timer runs.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startWebhooksListener, type WebhooksListenFlags } from "../../cli/commands/webhooks-listen.js";
import { signBody } from "../../src/sandbox/webhooks/signature.js";
import { afterAttempt, DEFAULT_FORWARD_LIMITS } from "../../src/webhooks/outbox.js";
import { type CapturedIo, captureIo } from "../helpers/run-cli.js";
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
import { type VirtualTime, virtualTime } from "./virtual-time.js";

/** A handler whose answer the test switches: 200, or a failing status (with Retry-After when given). */
interface Handler {
  url: string;
  mode: { status: number; retryAfter?: string };
  hits: { id: string; attempt: number; status: number }[];
  close(): Promise<void>;
}

async function startHandler(): Promise<Handler> {
  const handler: Handler = {
    url: "",
    mode: { status: 200 },
    hits: [],
    close: async () => {},
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const headers: IncomingHttpHeaders = req.headers;
      const { status, retryAfter } = handler.mode;
      handler.hits.push({
        id: String(headers["x-event-id"]),
        attempt: Number(headers["x-campaignctl-attempt"]),
        status,
      });
      res.writeHead(status, retryAfter === undefined ? {} : { "retry-after": retryAfter }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  handler.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  handler.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return handler;
}

let dir = "";
let handler: Handler;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "campaignctl-outbox-"));
  handler = await startHandler();
});
afterAll(() => handler.close());

function delivery(n: number, atMs: number): Sent {
  const body = Buffer.from(JSON.stringify({ message_id: `m-${n}`, status: "delivered", to: "+15035550110" }));
  return {
    headers: {
      "content-type": "application/json",
      "x-webhook-signature": signBody(SECRET, body),
      "x-event-type": "message.delivered",
      "x-event-id": `evt_${n}`,
      "x-timestamp": unixSeconds(atMs),
    },
    body,
  };
}

async function start(time: VirtualTime, state: string, over: Partial<WebhooksListenFlags> = {}) {
  const io: CapturedIo = captureIo({ env: SECRET_ENV, cwd: dir, clock: time.clock });
  const flags: WebhooksListenFlags = {
    port: 0,
    host: "127.0.0.1",
    secretEnv: ["WH_SECRET"],
    json: true,
    forwardTo: handler.url,
    state,
    ...over,
  };
  const started = await startWebhooksListener(flags, io, { sleep: time.sleep });
  if (!started.ok) throw new Error(io.err());
  return { io, listener: started.listener };
}

/** Moves virtual time on by `ms` and waits until the outbox has done what became due. */
async function advance(time: VirtualTime, listener: { forwardIdle(): Promise<void> }, ms: number) {
  time.advance(ms);
  await listener.forwardIdle();
}

describe("the outbox's rule", () => {
  const limits = { ...DEFAULT_FORWARD_LIMITS, maxAttempts: 5, maxAgeMs: 60_000 };
  test.each([
    {
      name: "a 2xx is done",
      ok: true,
      attempts: 1,
      retryAfterMs: null,
      nowMs: 0,
      expected: { kind: "done" },
    },
    {
      name: "1 s after the first failure",
      ok: false,
      attempts: 1,
      retryAfterMs: null,
      nowMs: 0,
      expected: { kind: "retry", nextAt: 1_000 },
    },
    {
      name: "doubling",
      ok: false,
      attempts: 3,
      retryAfterMs: null,
      nowMs: 10_000,
      expected: { kind: "retry", nextAt: 14_000 },
    },
    {
      name: "Retry-After when later",
      ok: false,
      attempts: 1,
      retryAfterMs: 30_000,
      nowMs: 0,
      expected: { kind: "retry", nextAt: 30_000 },
    },
    {
      name: "backoff when later than Retry-After",
      ok: false,
      attempts: 4,
      retryAfterMs: 1_000,
      nowMs: 0,
      expected: { kind: "retry", nextAt: 8_000 },
    },
    {
      name: "never past the age limit",
      ok: false,
      attempts: 2,
      retryAfterMs: 120_000,
      nowMs: 50_000,
      expected: { kind: "retry", nextAt: 60_000 },
    },
    {
      name: "dead at the attempt limit",
      ok: false,
      attempts: 5,
      retryAfterMs: null,
      nowMs: 0,
      expected: { kind: "dead", reason: "attempts" },
    },
    {
      name: "dead at the age limit",
      ok: false,
      attempts: 2,
      retryAfterMs: null,
      nowMs: 60_000,
      expected: { kind: "dead", reason: "age" },
    },
    {
      name: "not dead just before it",
      ok: false,
      attempts: 2,
      retryAfterMs: null,
      nowMs: 59_999,
      expected: { kind: "retry", nextAt: 60_000 },
    },
  ])("$name", ({ ok, attempts, retryAfterMs, nowMs, expected }) => {
    expect(afterAttempt({ ok, attempts, retryAfterMs, nowMs, acceptedAtMs: 0, limits })).toEqual(expected);
  });
  test("the backoff stops growing at 5 minutes", () => {
    expect(
      afterAttempt({
        ok: false,
        attempts: 30,
        retryAfterMs: null,
        nowMs: 0,
        acceptedAtMs: 0,
        limits: DEFAULT_FORWARD_LIMITS,
      }),
    ).toEqual({ kind: "retry", nextAt: 300_000 });
  });
});

describe("webhooks listen --forward-to: at least once", () => {
  test("handler down for 60 s with a listener restart in between, then up: every event reaches it, counts resume, none goes to dead-letter", async () => {
    const time = virtualTime(START_MS);
    handler.mode = { status: 503 };
    handler.hits.length = 0;
    const first = await start(time, "down-then-up");
    const ids = Array.from({ length: 100 }, (_, i) => `evt_${i}`);
    const answers = await Promise.all(ids.map((_, i) => post(first.listener.url, delivery(i, START_MS))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await first.listener.drained();
    await first.listener.forwardIdle();
    // Attempts at 0, 1, 3, 7, 15 s: then the listener stops (a deploy, a crash) at 20 s.
    for (const step of [1_000, 2_000, 4_000, 8_000, 5_000]) await advance(time, first.listener, step);
    await first.listener.stop();
    const firstLines = jsonLines(first.io.out());
    expect(firstLines.at(-1)).toMatchObject({
      type: "stopped",
      accepted: 100,
      forwarded: 0,
      forward_failed: 500,
      dead_lettered: 0,
      outbox: 100,
    });
    expect(
      firstLines
        .filter((l) => l.type === "forwarded")
        .every((l) => (l.diagnostic as { code: string }).code === "webhooks.forward-retry"),
    ).toBe(true);

    // Restarted on the same state at 20 s: the outbox is resumed with its counts (next attempt at 31 s).
    const second = await start(time, "down-then-up");
    expect(jsonLines(second.io.out())[0]).toMatchObject({
      type: "listening",
      outbox: 100,
      remembered: 100,
      dead_letters: 0,
    });
    await second.listener.forwardIdle();
    expect(handler.hits).toHaveLength(500);
    for (const step of [11_000, 29_000]) await advance(time, second.listener, step); // 31 s (6th attempt), 60 s: still down
    handler.mode = { status: 200 };
    await advance(time, second.listener, 3_000); // 63 s: the 7th attempt (31 + 32 s) is due
    expect(second.listener.outboxSize()).toBe(0);
    await second.listener.stop();

    const reached = new Set(handler.hits.filter((h) => h.status === 200).map((h) => h.id));
    expect([...reached].sort()).toEqual([...ids].sort());
    // The attempt numbers run on across the restart: 1 to 6 failed, the 7th got through.
    for (const id of ids)
      expect(handler.hits.filter((h) => h.id === id).map((h) => [h.attempt, h.status])).toEqual([
        [1, 503],
        [2, 503],
        [3, 503],
        [4, 503],
        [5, 503],
        [6, 503],
        [7, 200],
      ]);
    const lines = jsonLines(second.io.out());
    expect(lines.filter((l) => l.type === "forwarded" && l.ok === true)).toHaveLength(100);
    expect(lines.some((l) => l.type === "dead-lettered")).toBe(false);
    expect(lines.at(-1)).toMatchObject({ type: "stopped", forwarded: 100, dead_lettered: 0, outbox: 0 });
    expect(() => readFileSync(join(dir, "down-then-up", "dead-letter.jsonl"))).toThrow();
    // Nothing left to forward on the next start.
    const third = await start(time, "down-then-up");
    expect(jsonLines(third.io.out())[0]).toMatchObject({ outbox: 0 });
    await third.listener.stop();
  });

  test("Retry-After is honoured, and the last attempt runs at the age limit; only then dead-letter (reason age)", async () => {
    const time = virtualTime(START_MS);
    handler.mode = { status: 503, retryAfter: "4" };
    handler.hits.length = 0;
    const { io, listener } = await start(time, "retry-after", { forwardMaxAge: 10_000 });
    expect((await post(listener.url, delivery(1, START_MS))).status).toBe(200);
    await listener.drained();
    await listener.forwardIdle();
    for (const step of [4_000, 4_000]) await advance(time, listener, step);
    expect(jsonLines(io.out()).some((l) => l.type === "dead-lettered")).toBe(false);
    await advance(time, listener, 1_999);
    expect(handler.hits).toHaveLength(3);
    await advance(time, listener, 1);
    await listener.stop();
    const lines = jsonLines(io.out());
    const at = (s: number) => new Date(START_MS + s * 1000).toISOString();
    expect(
      lines.filter((l) => l.type === "forwarded").map((l) => [l.at, l.attempt, l.next_attempt_at]),
    ).toEqual([
      [at(0), 1, at(4)],
      [at(4), 2, at(8)],
      [at(8), 3, at(10)],
      [at(10), 4, null],
    ]);
    expect(lines.find((l) => l.type === "dead-lettered")).toMatchObject({
      event_id: "evt_1",
      attempts: 4,
      reason: "age",
      diagnostic: { code: "webhooks.dead-letter" },
    });
  });

  test("past --forward-max-attempts: to dead-letter.jsonl (valid, replayable), reported, and shown on the next start", async () => {
    const time = virtualTime(START_MS);
    handler.mode = { status: 500 };
    handler.hits.length = 0;
    const { io, listener } = await start(time, "dead", { forwardMaxAttempts: 2 });
    const sent = delivery(7, START_MS);
    expect((await post(listener.url, sent)).status).toBe(200);
    await listener.drained();
    await listener.forwardIdle();
    await advance(time, listener, 1_000);
    await listener.stop();
    expect(handler.hits.map((h) => h.attempt)).toEqual([1, 2]);
    const lines = jsonLines(io.out());
    expect(
      lines
        .filter((l) => l.type !== "listening" && l.type !== "stopped")
        .map((l) => [l.type, (l.diagnostic as { code?: string } | null)?.code]),
    ).toEqual([
      ["accepted", undefined],
      ["forwarded", "webhooks.forward-retry"],
      ["forwarded", "webhooks.forward-failed"],
      ["dead-lettered", "webhooks.dead-letter"],
    ]);
    expect(lines.at(-1)).toMatchObject({ type: "stopped", dead_lettered: 1, outbox: 0 });
    const dead = readFileSync(join(dir, "dead", "dead-letter.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(dead).toHaveLength(1);
    expectValid("webhook-dead-letter-line", dead[0]);
    expect(dead[0]).toMatchObject({ event_id: "evt_7", reason: "attempts", attempts: 2, last_status: 500 });
    expect(Buffer.from(dead[0].body_base64, "base64").equals(sent.body)).toBe(true);
    expect(dead[0].headers["x-webhook-signature"]).toBe(sent.headers["x-webhook-signature"]);
    // The next start says so, and does not forward it again.
    handler.mode = { status: 200 };
    const again = await start(time, "dead", { json: false });
    await again.listener.forwardIdle();
    await again.listener.stop();
    expect(again.io.out()).toContain("dead-letter: dead/dead-letter.jsonl holds 1 event not forwarded");
    expect(handler.hits).toHaveLength(2);
  });

  test("a dead-letter file that cannot be written for a while (here a directory in its place): reported, the event stays in the outbox, and is dead-lettered once it can be", async () => {
    const time = virtualTime(START_MS);
    handler.mode = { status: 500 };
    handler.hits.length = 0;
    const { io, listener } = await start(time, "dead-blocked", { forwardMaxAttempts: 1 });
    const deadFile = join(dir, "dead-blocked", "dead-letter.jsonl");
    mkdirSync(deadFile);
    expect((await post(listener.url, delivery(8, START_MS))).status).toBe(200);
    await listener.drained();
    await listener.forwardIdle();
    rmdirSync(deadFile);
    await advance(time, listener, 300_000);
    await listener.stop();
    expect(handler.hits.map((h) => h.attempt)).toEqual([1, 2]);
    const lines = jsonLines(io.out());
    expect(
      lines
        .filter((l) => l.type === "problem" || l.type === "dead-lettered")
        .map((l) => [l.type, (l.diagnostic as { code?: string }).code]),
    ).toEqual([
      ["problem", "webhooks.dead-letter-unwritten"],
      ["dead-lettered", "webhooks.dead-letter"],
    ]);
    expect(lines.at(-1)).toMatchObject({ type: "stopped", dead_lettered: 1, outbox: 0 });
    const dead = readFileSync(deadFile, "utf8").trim().split("\n");
    expect(dead.map((l) => JSON.parse(l).event_id)).toEqual(["evt_8"]);
  });

  test("a dead-letter file whose last line a crash cut short: the cut part is dropped, the next dead letter is a line of its own", async () => {
    const time = virtualTime(START_MS);
    handler.mode = { status: 500 };
    handler.hits.length = 0;
    const deadFile = join(dir, "dead-torn", "dead-letter.jsonl");
    mkdirSync(join(dir, "dead-torn"));
    writeFileSync(deadFile, '{"event_id":"evt_earlier","reason":"attempts"}\n{"event_id":"evt_cut","rea');
    const { listener } = await start(time, "dead-torn", { forwardMaxAttempts: 1 });
    expect((await post(listener.url, delivery(9, START_MS))).status).toBe(200);
    await listener.drained();
    await listener.forwardIdle();
    await listener.stop();
    const dead = readFileSync(deadFile, "utf8").trim().split("\n");
    expect(dead.map((l) => JSON.parse(l).event_id)).toEqual(["evt_earlier", "evt_9"]);
  });
});
