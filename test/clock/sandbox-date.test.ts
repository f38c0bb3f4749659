/**
 * The sandbox dates every response by its virtual clock, and the client reads the API's time from
 * it: over real HTTP on loopback, frozen virtual clock, the client's local clock injected.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createApiClient } from "../../src/api/index.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, api, PARENT_KEY, sandbox } from "../sandbox/helpers.js";

const FIXTURE_START = Date.parse("2026-12-01T15:00:00Z");
let sb: SandboxHandle | undefined;

afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe("the sandbox's Date header", () => {
  it("is the virtual time on API answers, errors and /_sandbox routes, and follows the clock", async () => {
    sb = await sandbox();
    const dated = (r: { headers: Headers }) => Date.parse(r.headers.get("date") ?? "");
    expect(dated(await api(sb, "GET", "/organizations"))).toBe(FIXTURE_START);
    expect(dated(await api(sb, "GET", "/organizations", { key: null }))).toBe(FIXTURE_START);
    expect(dated(await api(sb, "GET", "/projects/no-such-project"))).toBe(FIXTURE_START);
    expect(dated(await admin(sb, "GET", "/clock"))).toBe(FIXTURE_START);
    await sb.clock.advance(3 * 86_400_000 + 1500);
    expect(dated(await api(sb, "GET", "/organizations"))).toBe(FIXTURE_START + 3 * 86_400_000 + 1000);
  });

  it("is taken when the answer is sent, after a virtual latency", async () => {
    sb = await sandbox({ faults: "GET /organizations: latency(5m)" });
    let answered = false;
    const pending = api(sb, "GET", "/organizations").finally(() => {
      answered = true;
    });
    // The request waits on the virtual clock: move it a minute at a time until the answer comes.
    for (let i = 0; i < 200 && !answered; i++) {
      await sb.clock.advance(60_000);
      await new Promise((r) => setTimeout(r, 5));
    }
    const reply = await pending;
    const date = Date.parse(reply.headers.get("date") ?? "");
    expect(date).toBeGreaterThanOrEqual(FIXTURE_START + 300_000);
    expect(date).toBeLessThanOrEqual(sb.clock.nowMs());
  });
});

describe("client.serverTime()", () => {
  it("is null before a response, then the API's time carried on the local clock", async () => {
    sb = await sandbox();
    // This machine's clock is two hours behind the sandbox's.
    let local = FIXTURE_START - 7_200_000 + 250;
    const client = createApiClient({ baseUrl: sb.baseUrl, apiKey: PARENT_KEY, clock: { now: () => local } });
    try {
      expect(client.serverTime()).toBeNull();
      const orgs = await client.listOrganizations();
      expect(orgs.ok).toBe(true);
      expect(client.serverTime()?.getTime()).toBe(FIXTURE_START);
      local += 90_000;
      expect(client.serverTime()?.getTime()).toBe(FIXTURE_START + 90_000);
    } finally {
      await client.close();
    }
  });
});
