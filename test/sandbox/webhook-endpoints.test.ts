/**
 * The dashboard's webhook settings as `/_sandbox/webhook-endpoints`: an endpoint added there gets
 * an id and a secret derived from the seed (shown once), is listed without its secret, hears the
 * events emitted after it (its kinds, its organization and the organizations below), is kept in the
 * state file like a fixture's endpoints, and a request it cannot serve is a 400 naming the field.
 * Also the clock of `X-Timestamp` (`webhookClock`, `--webhook-clock`).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { generatedSecret } from "../../src/sandbox/admin/webhook-endpoints.js";
import type { SandboxHandle, SandboxOptions } from "../../src/sandbox/index.js";
import { signBody } from "../../src/sandbox/webhooks/signature.js";
import { TEST_NOW } from "../helpers/clock.js";
import { admin, CHILD_ORG, GOTV_REMINDER, ORG, sandbox } from "./helpers.js";
import {
  advance,
  fixtureWith,
  type Receiver,
  scheduleProject,
  startReceiver,
  WARD3,
} from "./sending-fixture.js";

const ALL_KINDS = ["message.sent", "message.delivered", "message.failed", "message.replied", "link.clicked"];

let sb: SandboxHandle | undefined;
const receivers: Receiver[] = [];

afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** A receiver closed after the test. */
async function receiver(): Promise<Receiver> {
  const r = await startReceiver(200);
  receivers.push(r);
  return r;
}

/**
 * The example world with GOTV Reminder's list cut to its first four contacts (three recipients),
 * every message delivered and no reply, plus a fixture endpoint `wh_fixture` when asked.
 */
async function world(options: SandboxOptions & { fixtureEndpoint?: string } = {}): Promise<SandboxHandle> {
  const { fixtureEndpoint, ...rest } = options;
  const fixture = fixtureWith((f) => {
    const ward3 = f.contact_lists?.find((l) => l.id === WARD3);
    if (ward3) ward3.contacts = ward3.contacts?.slice(0, 4);
    if (fixtureEndpoint !== undefined)
      f.webhook_endpoints = [
        {
          id: "wh_fixture",
          organization_id: ORG,
          url: fixtureEndpoint,
          secret: "whsec_fixture_0123456789",
          events: ["message.sent"],
        },
      ];
  });
  const started = await sandbox({ fixture, ...rest });
  await admin(started, "PATCH", "/simulation", { failure_rate: 0, reply_rate: 0 });
  return started;
}

/** Sends GOTV Reminder (three messages, each delivered) and runs the clock past its receipts. */
async function send(s: SandboxHandle): Promise<void> {
  await scheduleProject(s, GOTV_REMINDER, "2026-12-01T15:00:00Z");
  await advance(s, 0);
  await advance(s, 60_000);
  await admin(s, "POST", "/webhooks/flush");
}

describe("POST /_sandbox/webhook-endpoints", () => {
  test("a URL alone: wh_1 of the first top-level organization, every kind, a secret from the seed", async () => {
    sb = await world();
    const created = await admin(sb, "POST", "/webhook-endpoints", { url: "http://127.0.0.1:8787/hooks" });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: "wh_1",
      organization_id: ORG,
      name: "wh_1",
      url: "http://127.0.0.1:8787/hooks",
      events: ALL_KINDS,
      secret: generatedSecret(1, "wh_1"),
    });
    // The README's story shows this secret: seed 1, the first endpoint.
    expect(created.body.data.secret).toBe("whsec_7e05d8e1bc1ea5938dad492988ddabc3");
    const second = await admin(sb, "POST", "/webhook-endpoints", { url: "https://hooks.example.org/in" });
    expect(second.body.data.id).toBe("wh_2");
    expect(second.body.data.secret).toMatch(/^whsec_[0-9a-f]{32}$/);
    expect(second.body.data.secret).not.toBe(created.body.data.secret);
  });

  test("the secret depends on the seed and the endpoint, not on what happened before", async () => {
    sb = await world({ seed: 7 });
    await send(sb);
    const created = await admin(sb, "POST", "/webhook-endpoints", { url: "http://127.0.0.1:8787/hooks" });
    expect(created.body.data.secret).toBe(generatedSecret(7, "wh_1"));
    expect(created.body.data.secret).not.toBe(generatedSecret(1, "wh_1"));
  });

  test("every field given is kept as given", async () => {
    sb = await world();
    const body = {
      url: "https://young.example.org/hooks?source=sandbox",
      events: ["message.replied", "message.failed"],
      organization_id: CHILD_ORG,
      name: "Young Dems replies",
      secret: "whsec_my_own_secret_1234",
    };
    const created = await admin(sb, "POST", "/webhook-endpoints", body);
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: "wh_1", ...body });
  });

  test("the list shows every endpoint, the fixture's too, never a secret", async () => {
    sb = await world({ fixtureEndpoint: "http://127.0.0.1:9/fixture" });
    await admin(sb, "POST", "/webhook-endpoints", { url: "http://127.0.0.1:8787/hooks", name: "local" });
    const listed = await admin(sb, "GET", "/webhook-endpoints");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      {
        id: "wh_fixture",
        organization_id: ORG,
        name: "wh_fixture",
        url: "http://127.0.0.1:9/fixture",
        events: ["message.sent"],
      },
      {
        id: "wh_2",
        organization_id: ORG,
        name: "local",
        url: "http://127.0.0.1:8787/hooks",
        events: ALL_KINDS,
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_");
  });

  test("an added endpoint gets the signed deliveries of its kinds, as a fixture endpoint does", async () => {
    const [all, sentOnly, child, fixtureHook] = await Promise.all([
      receiver(),
      receiver(),
      receiver(),
      receiver(),
    ]);
    sb = await world({ fixtureEndpoint: fixtureHook.url });
    const added = (await admin(sb, "POST", "/webhook-endpoints", { url: all.url })).body.data;
    await admin(sb, "POST", "/webhook-endpoints", { url: sentOnly.url, events: ["message.sent"] });
    // GOTV Reminder belongs to the parent organization: an endpoint of the child hears nothing of it.
    await admin(sb, "POST", "/webhook-endpoints", { url: child.url, organization_id: CHILD_ORG });
    await send(sb);
    expect(all.received.map((r) => r.headers["x-event-type"]).sort()).toEqual([
      ...Array(3).fill("message.delivered"),
      ...Array(3).fill("message.sent"),
    ]);
    for (const r of all.received)
      expect(r.headers["x-webhook-signature"]).toBe(signBody(added.secret, r.raw.toString("utf8")));
    expect(sentOnly.received.map((r) => r.headers["x-event-type"])).toEqual(Array(3).fill("message.sent"));
    expect(fixtureHook.received).toHaveLength(3);
    expect(child.received).toEqual([]);
    const deliveries = (await admin(sb, "GET", `/webhooks/deliveries?endpoint_id=${added.id}`)).body.data;
    expect(deliveries.map((d: { state: string }) => d.state)).toEqual(Array(6).fill("delivered"));
  });

  test("it is kept in the state file: a restarted sandbox lists it and still delivers to it", async () => {
    const hook = await receiver();
    const state = join(mkdtempSync(join(tmpdir(), "cc-wh-endpoints-")), "state.json");
    sb = await world({ statePath: state });
    const created = (await admin(sb, "POST", "/webhook-endpoints", { url: hook.url, name: "kept" })).body
      .data;
    await sb.close();
    sb = await world({ statePath: state });
    const listed = (await admin(sb, "GET", "/webhook-endpoints")).body.data;
    expect(listed).toEqual([
      { id: "wh_1", organization_id: ORG, name: "kept", url: hook.url, events: ALL_KINDS },
    ]);
    await send(sb);
    expect(hook.received.length).toBe(6);
    for (const r of hook.received)
      expect(r.headers["x-webhook-signature"]).toBe(signBody(created.secret, r.raw.toString("utf8")));
  });

  test("POST /_sandbox/reset goes back to the fixture's endpoints", async () => {
    sb = await world();
    await admin(sb, "POST", "/webhook-endpoints", { url: "http://127.0.0.1:8787/hooks" });
    await admin(sb, "POST", "/reset");
    expect((await admin(sb, "GET", "/webhook-endpoints")).body.data).toEqual([]);
  });

  const refused: [string, unknown, (string | number)[], RegExp][] = [
    ["no url", {}, ["url"], /Required/],
    ["a url that is not absolute", { url: "hooks" }, ["url"], /absolute http or https URL/],
    ["a url of another scheme", { url: "ftp://127.0.0.1/hooks" }, ["url"], /must use http or https; got ftp/],
    ["a url with a password", { url: "http://me:pw@127.0.0.1/hooks" }, ["url"], /user name or password/],
    ["an unknown kind", { url: "http://127.0.0.1/", events: ["message.opened"] }, ["events", 0], /./],
    ["no kind", { url: "http://127.0.0.1/", events: [] }, ["events"], /./],
    ["a kind twice", { url: "http://127.0.0.1/", events: ["message.sent", "message.sent"] }, ["events"], /./],
    [
      "an unknown organization",
      { url: "http://127.0.0.1/", organization_id: "nope" },
      ["organization_id"],
      /No organization "nope"; the organizations are: 0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a01 \(Riverside Democrats\)/,
    ],
    ["a short secret", { url: "http://127.0.0.1/", secret: "whsec_short" }, ["secret"], /./],
    [
      "a secret with a space",
      { url: "http://127.0.0.1/", secret: "whsec_has a space_0123" },
      ["secret"],
      /./,
    ],
    ["an empty name", { url: "http://127.0.0.1/", name: "" }, ["name"], /./],
    ["an unknown property", { url: "http://127.0.0.1/", enabled: true }, [], /enabled/],
  ];
  test.each(refused)(
    "%s is a 400 VALIDATION_ERROR naming the field, and adds nothing",
    async (_, body, path, message) => {
      sb = await world();
      const answer = await admin(sb, "POST", "/webhook-endpoints", body);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe("VALIDATION_ERROR");
      const detail = answer.body.details[0];
      expect(detail.path).toEqual(path);
      expect(detail.message).toMatch(message);
      expect((await admin(sb, "GET", "/webhook-endpoints")).body.data).toEqual([]);
    },
  );
});

describe("the clock of X-Timestamp", () => {
  test("the virtual clock by default; this machine's clock with webhookClock: wall", async () => {
    const [virtualHook, wallHook] = await Promise.all([receiver(), receiver()]);
    const virtualMs = Date.parse("2026-12-01T15:00:00Z");
    const stamps = async (options: SandboxOptions, hook: Receiver) => {
      const s = await world(options);
      await admin(s, "POST", "/webhook-endpoints", { url: hook.url, events: ["message.sent"] });
      await scheduleProject(s, GOTV_REMINDER, "2026-12-01T15:00:00Z");
      await advance(s, 0);
      await admin(s, "POST", "/webhooks/flush");
      expect(s.bugs).toEqual([]);
      await s.close();
      return hook.received.map((r) => r.headers["x-timestamp"]);
    };
    expect(await stamps({}, virtualHook)).toEqual(Array(3).fill(String(virtualMs / 1000)));
    const wall = TEST_NOW.getTime() + 1_500;
    expect(await stamps({ webhookClock: "wall", wallClock: () => wall }, wallHook)).toEqual(
      Array(3).fill(String(Math.floor(wall / 1000))),
    );
  });

  test("the delivery log's attempt times stay virtual with webhookClock: wall", async () => {
    const hook = await receiver();
    sb = await world({ webhookClock: "wall", wallClock: () => TEST_NOW.getTime() });
    await admin(sb, "POST", "/webhook-endpoints", { url: hook.url, events: ["message.sent"] });
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:00Z");
    await advance(sb, 0);
    await admin(sb, "POST", "/webhooks/flush");
    const deliveries = (await admin(sb, "GET", "/webhooks/deliveries")).body.data;
    expect(deliveries.map((d: { attempts: { at: string }[] }) => d.attempts[0]?.at)).toEqual(
      Array(3).fill("2026-12-01T15:00:00.000Z"),
    );
  });
});
