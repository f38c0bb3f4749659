import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { openSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { admin, api, EARLY_VOTE, EXAMPLE_FIXTURE, GOTV_REMINDER, PARENT_KEY, sandbox } from "./helpers.js";

let handles: SandboxHandle[] = [];
let dirs: string[] = [];
afterEach(async () => {
  for (const h of handles) {
    expect(h.bugs).toEqual([]);
    await h.close();
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  handles = [];
  dirs = [];
});
async function start(options: Parameters<typeof sandbox>[0]): Promise<SandboxHandle> {
  const h = await sandbox(options);
  handles.push(h);
  return h;
}
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "sandbox-state-"));
  dirs.push(d);
  return d;
}

describe("persistence", () => {
  test("a second start with the same statePath continues the world, the clock and idempotency keys", async () => {
    const statePath = join(tempDir(), "state.json");
    const first = await start({ statePath });
    await api(first, "POST", `/projects/${EARLY_VOTE}/pause`, {
      body: { reason: "polling place change" },
      idempotencyKey: "k".repeat(16),
    });
    await first.clock.advance(90_000);
    const updated = first.store.world.projects[EARLY_VOTE]?.updated_at;
    await first.close();
    handles = [];
    const saved = JSON.parse(readFileSync(statePath, "utf8"));
    expect(saved.virtual_now).toBe("2026-12-01T15:01:30.000Z");

    const second = await start({ statePath });
    expect(second.clock.now().toISOString()).toBe("2026-12-01T15:01:30.000Z");
    const live = await api(second, "GET", `/projects/${EARLY_VOTE}`);
    expect(live.body.data).toMatchObject({
      status: "paused",
      pause_reason: "polling place change",
      updated_at: updated,
    });
    const replay = await api(second, "POST", `/projects/${EARLY_VOTE}/pause`, {
      body: { reason: "polling place change" },
      idempotencyKey: "k".repeat(16),
    });
    expect(replay.headers.get("x-idempotent-replayed")).toBe("true");
  });

  test("a corrupt state file is a start problem naming the file", async () => {
    const statePath = join(tempDir(), "state.json");
    writeFileSync(statePath, "{ nope");
    const started = await openSandbox({ fixture: EXAMPLE_FIXTURE, statePath });
    expect(started.ok).toBe(false);
    if (!started.ok) expect(started.problems[0]?.where).toBe(statePath);
  });
});

describe("/_sandbox routes", () => {
  test("need no key and are not rate limited or logged as API traffic", async () => {
    const sb = await start({ rateLimits: true });
    for (let i = 0; i < 120; i++) await admin(sb, "GET", "/clock");
    expect((await admin(sb, "GET", "/clock")).status).toBe(200);
    expect((await admin(sb, "GET", "/requests")).body.data.total).toBe(0);
  });

  test("clock: read, advance, set", async () => {
    const sb = await start({});
    expect((await admin(sb, "GET", "/clock")).body.data.now).toBe("2026-12-01T15:00:00.000Z");
    expect((await admin(sb, "POST", "/clock/advance", { ms: 1500 })).body.data.now).toBe(
      "2026-12-01T15:00:01.500Z",
    );
    expect((await admin(sb, "POST", "/clock/advance", { ms: -1 })).status).toBe(400);
    expect((await admin(sb, "POST", "/clock/set", { at: "2026-12-07T00:00:00Z" })).body.data.now_ms).toBe(
      Date.parse("2026-12-07T00:00:00Z"),
    );
  });

  test("a date-time no Date can hold is a 400 that changes nothing, not a clock or a project broken for good", async () => {
    const sb = await start({});
    const project = (await admin(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data;
    for (const at of ["2026-12-07T10:00:00-06", "2026-12-31T23:59:60Z"]) {
      const set = await admin(sb, "POST", "/clock/set", { at });
      expect([set.status, set.body.code], at).toEqual([400, "VALIDATION_ERROR"]);
      const edit = await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, {
        name: "Edited",
        scheduled_at: at,
      });
      expect([edit.status, edit.body.code], at).toEqual([400, "VALIDATION_ERROR"]);
    }
    expect((await admin(sb, "GET", "/clock")).body.data.now).toBe("2026-12-01T15:00:00.000Z");
    const read = await api(sb, "GET", "/organizations");
    expect(read.status).toBe(200);
    expect(Date.parse(read.headers.get("date") ?? "")).toBe(Date.parse("Tue, 01 Dec 2026 15:00:00 GMT"));
    expect((await admin(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data).toEqual(project);
  });

  test("the request log names the key id, never the key, with counts per route and key", async () => {
    const sb = await start({});
    await api(sb, "GET", `/projects/${GOTV_REMINDER}`);
    await api(sb, "GET", "/projects/nope");
    await api(sb, "GET", "/organizations", { key: null });
    const log = (await admin(sb, "GET", "/requests")).body.data;
    expect(JSON.stringify(log)).not.toContain(PARENT_KEY);
    expect(
      log.requests.map((r: { route: string; key_id: string | null; status: number }) => [
        r.route,
        r.key_id,
        r.status,
      ]),
    ).toEqual([
      ["/projects/{id}", "key_riverside_admin", 200],
      ["/projects/{id}", "key_riverside_admin", 404],
      [null, null, 401],
    ]);
    expect(log.counts.per_route).toEqual({ "GET /projects/{id}": 2, "GET (unknown)": 1 });
    expect(log.counts.per_key).toEqual({ key_riverside_admin: 2, "(none)": 1 });
    await admin(sb, "DELETE", "/requests");
    expect((await admin(sb, "GET", "/requests")).body.data.requests).toEqual([]);
  });

  test("PATCH edits a live project as the dashboard would and bumps updated_at; GET shows the raw record", async () => {
    const sb = await start({});
    const before = (await api(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data.updated_at;
    const edited = await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, {
      message_text: "Changed in the dashboard",
    });
    expect(edited.status).toBe(200);
    const live = (await api(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data;
    expect(live.message_text).toBe("Changed in the dashboard");
    expect(live.updated_at > before).toBe(true);
    expect((await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, { status: "bogus" })).status).toBe(400);
    expect((await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, { nonsense: 1 })).status).toBe(400);
    expect((await admin(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data.counters.messages_sent).toBe(0);
  });

  test("two changes at the same virtual instant still give distinct updated_at values", async () => {
    const sb = await start({});
    const a = (await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, { name: "a" })).body.data.updated_at;
    const b = (await admin(sb, "PATCH", `/projects/${GOTV_REMINDER}`, { name: "b" })).body.data.updated_at;
    expect(Date.parse(b)).toBe(Date.parse(a) + 1);
  });

  test("reset goes back to the fixture and its clock", async () => {
    const sb = await start({});
    await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, {});
    await sb.clock.advance(5000);
    const r = await admin(sb, "POST", "/reset");
    expect(r.body.data.now).toBe("2026-12-01T15:00:00.000Z");
    expect(sb.store.world.projects[EARLY_VOTE]?.status).toBe("scheduled");
    expect((await admin(sb, "GET", "/effects")).body.data.effects).toEqual([]);
  });
});
