/**
 * The client against the sandbox over real HTTP on loopback, on the sandbox's virtual clock:
 * envelopes per endpoint, the contract's error shapes, rate limiting, injected faults, replays.
 */
import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ApiClient,
  type ApiError,
  type ApiResult,
  createApiClient,
  RateLimiter,
} from "../../src/api/index.js";
import { loadFixtureFile } from "../../src/sandbox/fixture/load.js";
import {
  type Fixture,
  type SandboxHandle,
  type SandboxOptions,
  startSandbox,
} from "../../src/sandbox/index.js";
import { defaultFixturePath } from "../../src/sandbox/paths.js";

const ROOT_ORG = "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a01";
const GOTV = "9a000000-0000-4000-8000-000000000001";
const EARLY_VOTE = "9a000000-0000-4000-8000-000000000004";
const REVOKED_KEY = "pc_live_sbx_revoked_0000000000";
const IDEM = "cc1-sandbox-test-key-000000000001";

function fixtureWithRevokedKey(): Fixture {
  const loaded = loadFixtureFile(defaultFixturePath());
  if (!loaded.ok) throw new Error("example fixture does not load");
  const fixture = structuredClone(loaded.fixture);
  fixture.api_keys.push({
    id: "key_revoked",
    key: REVOKED_KEY,
    organization_id: ROOT_ORG,
    type: "read-write",
    revoked: true,
  });
  return fixture;
}

let sb: SandboxHandle;
let clients: ApiClient[];
const errors: ApiError[] = [];

function keyOf(orgName: string): string {
  const k = sb.keys.find(
    (key) => key.organization_name === orgName && key.type === "read-write" && !key.revoked,
  );
  if (!k) throw new Error(`no key for ${orgName}`);
  return k.key;
}

function client(apiKey = keyOf("Riverside Democrats"), limiter?: RateLimiter): ApiClient {
  const c = createApiClient({
    baseUrl: sb.baseUrl,
    apiKey,
    clock: { now: () => sb.clock.now().getTime() },
    sleep: (ms) => sb.clock.advance(ms),
    random: () => 0.5,
    ...(limiter ? { limiter } : {}),
  });
  clients.push(c);
  return c;
}

async function start(options: SandboxOptions = {}): Promise<void> {
  sb = await startSandbox({ fixture: fixtureWithRevokedKey(), rateLimits: false, ...options });
}

async function admin(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
  const res = await request(`${sb.rootUrl}/_sandbox${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const json = (await res.body.json()) as { data: unknown };
  expect(res.statusCode).toBe(200);
  return json.data;
}

interface LogEntry {
  method: string;
  route: string | null;
  status: number;
  idempotency_key: string | null;
  replayed: boolean;
}
async function requestLog(): Promise<LogEntry[]> {
  return ((await admin("GET", "/requests")) as { requests: LogEntry[] }).requests;
}

function failed<T>(r: ApiResult<T>): ApiError {
  if (r.ok) throw new Error("expected a failure");
  errors.push(r.error);
  return r.error;
}

beforeEach(() => {
  clients = [];
});

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sb.close();
  expect(sb.bugs).toEqual([]);
  for (const e of errors) for (const k of sb.keys) expect(JSON.stringify(e)).not.toContain(k.key);
  for (const e of errors) expect(JSON.stringify(e)).not.toContain(REVOKED_KEY);
});

describe("envelopes per endpoint", () => {
  beforeEach(() => start());

  it("unwraps every read endpoint's data", async () => {
    const c = client();
    const project = await c.getProject(GOTV);
    expect(project.ok && project.value).toMatchObject({
      project_id: GOTV,
      status: "draft",
      organization_id: ROOT_ORG,
    });
    const orgs = await c.listOrganizations();
    expect(orgs.ok && orgs.value.map((o) => o.display_name).sort()).toEqual([
      "Riverside Democrats",
      "Riverside Young Democrats",
    ]);
    const tollFree = await c.listPhoneNumbers({ channel: "toll-free" });
    expect(tollFree.ok && tollFree.value.map((n) => n.number)).toEqual(["+18445550103"]);
    const tfv = await c.getTollFreeVerification("7f1a2c3d-0000-4000-8000-000000000001");
    expect(tfv.ok && tfv.value).toMatchObject({ status: "Verified", phone_number_count: 1 });
    const media = await c.getMedia("f1000000-0000-4000-8000-000000000001");
    expect(media.ok && media.value).toMatchObject({ name: "rally-flyer.png", content_type: "image/png" });
    const tcr = await c.listTenDlcCampaigns({ organization_id: ROOT_ORG });
    expect(tcr.ok && tcr.value.map((t) => t.campaign_status)).toEqual(["MNO_PROVISIONED"]);
    const lists = await c.listContactLists({ brand_id: "b1a2c3d4-0000-4000-8000-000000000001" });
    expect(lists.ok && lists.value.length).toBeGreaterThan(0);
    const stats = await c.getProjectStats({
      startDate: "2026-11-10",
      endDate: "2026-12-01",
      status: "all",
      limit: 10,
    });
    expect(stats.ok && stats.value.pagination).toMatchObject({ limit: 10, offset: 0 });
    expect(c.stats().requests).toBe(8);
    expect(c.stats().byEndpoint["GET /projects/{id}"]).toBe(1);
  });
});

describe("error shapes", () => {
  beforeEach(() => start());

  it("404 PROJECT_NOT_FOUND", async () => {
    const e = failed(await client().getProject("9a000000-0000-4000-8000-0000000000ff"));
    expect(e).toMatchObject({
      kind: "http",
      status: 404,
      code: "PROJECT_NOT_FOUND",
      shape: "standard",
      outcome: "none",
      attempts: 1,
    });
  });

  it("400 VALIDATION_ERROR with field details", async () => {
    const e = failed(await client().pauseProject(EARLY_VOTE, { reason: "" }, IDEM));
    expect(e).toMatchObject({ status: 400, code: "VALIDATION_ERROR", outcome: "none" });
    expect(Array.isArray(e.kind === "http" && e.details)).toBe(true);
  });

  it("401 for a revoked key, not retried", async () => {
    const e = failed(await client(REVOKED_KEY).getProject(GOTV));
    expect(e).toMatchObject({ status: 401, code: "UNAUTHORIZED", shape: "auth", attempts: 1 });
  });

  it("403 ORG_ACCESS_DENIED for a child organization's key", async () => {
    const e = failed(await client(keyOf("Riverside Young Democrats")).getProject(GOTV));
    expect(e).toMatchObject({ status: 403, code: "ORG_ACCESS_DENIED", shape: "standard" });
  });
});

describe("rate limiting on the virtual clock", () => {
  beforeEach(() => start({ rateLimits: true }));

  it("sends 150 concurrent GETs without a single 429, in about one window", async () => {
    const limiter = new RateLimiter({
      clock: { now: () => sb.clock.now().getTime() },
      sleep: (ms) => sb.clock.advance(ms),
    });
    const c = client(undefined, limiter);
    const t0 = sb.clock.now().getTime();
    const results = await Promise.all(Array.from({ length: 150 }, () => c.getProject(GOTV)));
    const elapsed = sb.clock.now().getTime() - t0;
    expect(results.every((r) => r.ok)).toBe(true);
    const log = await requestLog();
    expect(log.filter((e) => e.status === 429)).toEqual([]);
    expect(log.filter((e) => e.route === "/projects/{id}")).toHaveLength(150);
    expect(elapsed).toBeGreaterThanOrEqual(60_000);
    expect(elapsed).toBeLessThan(62_000);
    expect(c.stats()).toMatchObject({ throttled: 0, requests: 150, rateLimiter: { waits: 1 } });
  });

  it("waits out a burst of 429s by Retry-After", async () => {
    await admin("POST", "/faults", { spec: "GET /projects/{id}: burst-429(2, retry-after=5) n=1" });
    const c = client();
    const t0 = sb.clock.now().getTime();
    const r = await c.getProject(GOTV);
    expect(r.ok && r.meta.attempts).toBe(3);
    expect(sb.clock.now().getTime() - t0).toBe(10_000);
    expect((await requestLog()).map((e) => e.status)).toEqual([429, 429, 200]);
    expect(c.stats()).toMatchObject({ throttled: 2, rateLimiter: { waitMs: 10_000 } });
  });
});

describe("faults", () => {
  beforeEach(() => start());

  it("retries a GET after an injected 500", async () => {
    await admin("POST", "/faults", { spec: "GET /projects/{id}: status(500) n=1" });
    const r = await client().getProject(GOTV);
    expect(r.ok && r.meta.attempts).toBe(2);
    expect((await requestLog()).map((e) => e.status)).toEqual([500, 200]);
  });

  it("retries a GET after a connection reset", async () => {
    await admin("POST", "/faults", { spec: "GET /organizations: reset n=1" });
    const c = client();
    const r = await c.listOrganizations();
    expect(r.ok && r.meta.attempts).toBe(2);
    expect(c.stats().retriesByReason.network).toBe(1);
  });

  it("attempts a write once: 503 SEND_ENQUEUE_FAILED is returned (outcome none) for the caller to resend", async () => {
    await admin("POST", "/faults", { spec: "POST /projects/{id}/pause: status(503) n=1" });
    const c = client();
    const e = failed(await c.pauseProject(EARLY_VOTE, { reason: "storm" }, IDEM));
    expect(e).toMatchObject({ status: 503, code: "SEND_ENQUEUE_FAILED", outcome: "none", attempts: 1 });
    expect((await c.pauseProject(EARLY_VOTE, { reason: "storm" }, IDEM)).ok).toBe(true);
    const writes = (await requestLog()).filter((e) => e.method === "POST");
    expect(writes.map((e) => [e.status, e.idempotency_key])).toEqual([
      [503, IDEM],
      [200, IDEM],
    ]);
    expect(c.stats().retriesByReason["enqueue-failed"]).toBe(1);
  });

  it("returns unknown outcome for a write that committed and then failed, and does not resend it", async () => {
    await admin("POST", "/faults", { spec: "POST /projects/{id}/pause: commit-then-fail(500) n=1" });
    const c = client();
    const e = failed(await c.pauseProject(EARLY_VOTE, { reason: "storm" }, IDEM));
    expect(e).toMatchObject({ kind: "http", status: 500, outcome: "unknown", attempts: 1 });
    const live = await c.getProject(EARLY_VOTE);
    expect(live.ok && live.value.status).toBe("paused");
    expect((await requestLog()).filter((x) => x.method === "POST")).toHaveLength(1);
  });

  it("surfaces a replay of the same idempotency key", async () => {
    const c = client();
    const first = await c.pauseProject(EARLY_VOTE, { reason: "storm" }, IDEM);
    const second = await c.pauseProject(EARLY_VOTE, { reason: "storm" }, IDEM);
    expect(first.ok && first.meta.replayed).toBe(false);
    expect(second.ok && second.meta.replayed).toBe(true);
  });
});
