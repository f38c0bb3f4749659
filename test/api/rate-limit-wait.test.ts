/**
 * The client never waits silently, nor for ever, for the rate limit. Our client against
 * the sandbox over real HTTP on loopback, its clock the sandbox's virtual clock and its sleep
 * injected (no real sleep): a wait of 5 s or more is announced (`wait-start`), the waits of one
 * request end at two of the contract's windows (src/api/rate-limit-bounds.ts), and past that the
 * request (and every later one of the key) fails with `api.rate-limit-stuck` instead of waiting.
 */
import { afterEach, describe, expect, test } from "vitest";
import {
  type ApiClient,
  type ApiEvent,
  apiErrorDiagnostic,
  apiErrorsDiagnostics,
  createApiClient,
  isRateLimitStall,
  RATE_LIMIT_MAX_WAIT_MS,
  type WaitStartEvent,
  writeFailureOf,
} from "../../src/api/index.js";
import { API_CODES } from "../../src/diagnostics/codes/api.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, api, PARENT_KEY, sandbox } from "../sandbox/helpers.js";

let sb: SandboxHandle;
const clients: ApiClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await sb?.close();
});

interface Wired {
  readonly client: ApiClient;
  readonly events: ApiEvent[];
  /** Every sleep the client asked for, in ms. */
  readonly sleeps: number[];
}

/**
 * Our client on the sandbox's clock. `moves`: whether its sleep advances the virtual clock (a clock
 * that runs) or returns at once leaving it where it is (a frozen clock: the reset never comes).
 */
function wired(moves: boolean): Wired {
  const events: ApiEvent[] = [];
  const sleeps: number[] = [];
  const client = createApiClient({
    baseUrl: sb.baseUrl,
    apiKey: PARENT_KEY,
    clock: { now: () => sb.clock.nowMs() },
    sleep: async (ms) => {
      sleeps.push(ms);
      if (moves) await sb.clock.advance(ms);
    },
    random: () => 0.5,
    onEvent: (event) => events.push(event),
  });
  clients.push(client);
  return { client, events, sleeps };
}

async function requestLog(): Promise<{ status: number; route: string | null }[]> {
  const log = await admin(sb, "GET", "/requests");
  return (log.body as { data: { requests: { status: number; route: string | null }[] } }).data.requests;
}

/** Another user of the key takes `n` of its window's 100 requests (at the frozen instant). */
async function exhaustKey(n = 100): Promise<void> {
  for (let i = 0; i < n; i++) expect((await api(sb, "GET", "/organizations")).status).toBe(200);
  await admin(sb, "DELETE", "/requests");
}

const waitStarts = (events: readonly ApiEvent[]): WaitStartEvent[] =>
  events.filter((e): e is WaitStartEvent => e.type === "wait-start");

describe("limits on, the clock runs: the client waits, and announces the wait", () => {
  test("101 reads: one wait of a window, announced before it starts, no 429", async () => {
    sb = await sandbox({ rateLimits: true });
    const { client, events, sleeps } = wired(true);
    const t0 = sb.clock.nowMs();
    const results = await Promise.all(Array.from({ length: 101 }, () => client.listOrganizations()));
    expect(results.every((r) => r.ok)).toBe(true);
    expect((await requestLog()).filter((r) => r.status === 429)).toEqual([]);
    expect(sleeps).toHaveLength(1);
    const [start] = waitStarts(events);
    expect(waitStarts(events)).toHaveLength(1);
    expect(start).toMatchObject({ type: "wait-start", reason: "rate-limit", cause: "window" });
    // Announced before the sleep, with the time it ends on the client's clock.
    expect(start?.atMs).toBe(t0);
    expect(start?.untilMs).toBe(t0 + (start?.ms ?? 0));
    expect(start?.ms).toBeGreaterThanOrEqual(60_000);
    expect(start?.ms).toBeLessThan(61_000);
    const waited = events.findIndex((e) => e.type === "wait");
    expect(events.indexOf(start as ApiEvent)).toBeLessThan(waited);
  });

  test("another user took the key's window: the 429's Retry-After is waited out, announced", async () => {
    sb = await sandbox({ rateLimits: true });
    await exhaustKey();
    const { client, events } = wired(true);
    const first = await client.listOrganizations();
    expect(first.ok).toBe(true);
    expect(waitStarts(events).map((e) => [e.cause, e.ms])).toEqual([["retry-after", 60_000]]);
    expect((await requestLog()).map((r) => r.status)).toEqual([429, 200]);
  });

  test("X-RateLimit-Remaining 0 after another user's 99: the next read waits for the reset (cause remaining)", async () => {
    sb = await sandbox({ rateLimits: true });
    await exhaustKey(99);
    const { client, events } = wired(true);
    expect((await client.listOrganizations()).ok).toBe(true);
    expect(waitStarts(events)).toEqual([]);
    expect((await client.listOrganizations()).ok).toBe(true);
    expect(waitStarts(events).map((e) => e.cause)).toEqual(["remaining"]);
    expect((await requestLog()).map((r) => r.status)).toEqual([200, 200]);
  });

  test("short waits (pacing under 5 s) are not announced", async () => {
    sb = await sandbox({ rateLimits: true });
    const { client, events, sleeps } = wired(true);
    for (let i = 0; i < 100; i++) expect((await client.listOrganizations()).ok).toBe(true);
    // The window frees one slot at a time as the clock moves in small steps: a 1 s wait.
    await sb.clock.advance(59_000);
    expect((await client.listOrganizations()).ok).toBe(true);
    expect(sleeps.length).toBeGreaterThan(0);
    expect(sleeps.every((ms) => ms < 5_000)).toBe(true);
    expect(waitStarts(events)).toEqual([]);
  });
});

describe("waits no reset will end: a clear error instead of for ever", () => {
  test("a frozen clock: the waits stop at two windows, api.rate-limit-stuck, nothing more is sent", async () => {
    sb = await sandbox({ rateLimits: true });
    await exhaustKey();
    const { client, sleeps } = wired(false);
    const result = await client.listOrganizations();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(isRateLimitStall(result.error)).toBe(true);
    expect(result.error.outcome).toBe("none");
    // Asked to wait the 429's 60 s twice over; the clock never moved; the third wait is refused.
    expect(sleeps).toEqual([60_000, 60_000]);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(RATE_LIMIT_MAX_WAIT_MS);
    const diagnostic = apiErrorDiagnostic(result.error);
    expect(diagnostic.code).toBe("api.rate-limit-stuck");
    expect(API_CODES["api.rate-limit-stuck"]).toContain("instead of waiting for ever");
    expect(diagnostic.message).toBe(
      "GET /organizations: not sent: waited 2m for a rate-limit slot (the API answered 429 with a Retry-After) but the clock moved 0s: the reset never comes",
    );
    expect(diagnostic.hint).toContain("--no-rate-limits");
    // Only the one 429 reached the sandbox; every later call fails at once, sending nothing.
    expect((await requestLog()).map((r) => r.status)).toEqual([429]);
    const later = await Promise.all([client.listOrganizations(), client.getProject("p")]);
    expect(later.map((r) => !r.ok && isRateLimitStall(r.error))).toEqual([true, true]);
    expect(sleeps).toHaveLength(2);
    expect((await requestLog()).map((r) => r.status)).toEqual([429]);
    // Said once for the run, naming the requests.
    const said = apiErrorsDiagnostics(later.map((r) => (r.ok ? null : r.error)).filter((e) => e !== null));
    expect(said.map((d) => d.code)).toEqual(["api.rate-limit-stuck"]);
    expect(said[0]?.message).toContain("2 requests failed (GET /organizations, GET /projects/p)");
  });

  test("a Retry-After beyond two windows is refused at once, without a sleep, until it is over", async () => {
    sb = await sandbox({ rateLimits: true, faults: "GET /organizations: status(429, retry-after=3600) n=1" });
    const { client, sleeps, events } = wired(true);
    const result = await client.listOrganizations();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(sleeps).toEqual([]);
    expect(waitStarts(events)).toEqual([]);
    expect(apiErrorDiagnostic(result.error)).toMatchObject({
      code: "api.rate-limit-stuck",
      message:
        "GET /organizations: not sent: the rate-limit wait asked for (the API answered 429 with a Retry-After) is 1h, more than the 2m any reset of the contract's 1m window can need",
    });
    // Every request meets the hold until it is over, sending nothing; then the key works again.
    const during = await client.getProject("p");
    expect(!during.ok && isRateLimitStall(during.error)).toBe(true);
    expect((await requestLog()).map((r) => r.status)).toEqual([429]);
    await sb.clock.advance(3_600_000);
    expect((await client.listOrganizations()).ok).toBe(true);
    expect((await requestLog()).map((r) => r.status)).toEqual([429, 200]);
    expect(sleeps).toEqual([]);
  });

  test("a write: its resend after the 429 is refused, not sent, and final (never re-read or resent)", async () => {
    sb = await sandbox({ rateLimits: true });
    await exhaustKey();
    const { client, sleeps } = wired(false);
    const key = "campaignctl-test-pause-0001";
    const send = () => client.pauseProject("9a000000-0000-4000-8000-000000000004", {}, key);
    // A write is sent once per call: the 429 comes back to the caller's retry layer.
    const first = await send();
    expect(!first.ok && first.error.kind === "http" && first.error.status).toBe(429);
    // Its resend waits the Retry-After on a clock that does not move, and is refused.
    const resend = await send();
    expect(resend.ok).toBe(false);
    if (resend.ok) return;
    expect(resend.error).toMatchObject({ method: "POST", outcome: "none" });
    expect(isRateLimitStall(resend.error)).toBe(true);
    expect(writeFailureOf(resend.error)).toBe("refused");
    expect(sleeps).toEqual([60_000, 60_000]);
    expect((await requestLog()).map((r) => r.status)).toEqual([429]);
  });
});
