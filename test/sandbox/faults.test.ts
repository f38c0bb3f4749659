import { afterEach, describe, expect, test } from "vitest";
import { parseFaultSpec } from "../../src/sandbox/faults/spec.js";
import { openSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import { admin, api, EARLY_VOTE, EXAMPLE_FIXTURE, GOTV_REMINDER, sandbox } from "./helpers.js";

let handles: SandboxHandle[] = [];
afterEach(async () => {
  for (const h of handles) {
    expect(h.bugs).toEqual([]);
    await h.close();
  }
  handles = [];
});
async function start(options: Parameters<typeof sandbox>[0]): Promise<SandboxHandle> {
  const h = await sandbox(options);
  handles.push(h);
  return h;
}

describe("fault spec", () => {
  test.each([
    ["POST /projects/{id}/schedule: commit-then-fail(500) p=0.3; *: latency(200ms) p=0.1", 2],
    ["GET *: status(503)", 1],
    ["*: burst-429(3, retry-after=7) n=2", 1],
    ["/v1/projects: reset", 0],
    ["*: explode", 0],
    ["*: status(200)", 0],
    ["*: latency(fast)", 0],
    ["*: reset p=2", 0],
    ["POST /conversations/{conversation_id}/messages: commit-then-fail(503)", 0],
    ["POST /projects/{id}/test: commit-then-fail(502)", 1],
    ["GET /contact-lists: status(500) org=0c000000-0000-4000-8000-000000000002", 1],
    ["GET /contact-lists: status(500) org=", 0],
  ])("%s", (spec, rules) => {
    const parsed = parseFaultSpec(spec);
    if (rules === 0) expect(parsed.ok).toBe(false);
    else expect(parsed.ok && parsed.rules.length).toBe(rules);
  });

  test("a bad --faults spec is a start problem, not an exception", async () => {
    const started = await openSandbox({ fixture: EXAMPLE_FIXTURE, faults: "*: explode" });
    expect(started.ok).toBe(false);
    if (!started.ok) expect(started.problems[0]?.where).toBe("--faults");
  });
});

describe("faults", () => {
  test("status faults answer with the contract's body for the code", async () => {
    const sb = await start({
      faults: "GET /projects/{id}: status(503) n=1; GET /organizations: status(429, retry-after=7) n=1",
    });
    const unavailable = await api(sb, "GET", `/projects/${GOTV_REMINDER}`);
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.code).toBe("SEND_ENQUEUE_FAILED");
    expectShape("standardError", unavailable.body);
    const limited = await api(sb, "GET", "/organizations");
    expect(limited.status).toBe(429);
    expectShape("rateLimitError", limited.body);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect((await api(sb, "GET", "/organizations")).status).toBe(200);
  });

  test("draws are deterministic per seed and differ between seeds", async () => {
    const spec = "GET /projects/{id}: status(500) p=0.5";
    const run = async (seed: number) => {
      const sb = await start({ faults: spec, seed });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await api(sb, "GET", `/projects/${GOTV_REMINDER}`)).status);
      return out;
    };
    const a = await run(7);
    expect(await run(7)).toEqual(a);
    expect(a).toContain(500);
    expect(a).toContain(200);
    expect(await run(8)).not.toEqual(a);
  });

  test("other traffic does not shift a rule's draws", async () => {
    const spec = "GET /projects/{id}: status(500) p=0.5";
    const quiet = await start({ faults: spec, seed: 3 });
    const busy = await start({ faults: spec, seed: 3 });
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 12; i++) {
      a.push((await api(quiet, "GET", `/projects/${GOTV_REMINDER}`)).status);
      await api(busy, "GET", "/organizations");
      b.push((await api(busy, "GET", `/projects/${GOTV_REMINDER}`)).status);
    }
    expect(b).toEqual(a);
  });

  test("burst-429 answers N consecutive 429s", async () => {
    const sb = await start({ faults: "GET /organizations: burst-429(3) n=1" });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await api(sb, "GET", "/organizations")).status);
    expect(statuses).toEqual([429, 429, 429, 200, 200]);
  });

  test("commit-then-fail commits the change and then answers 500", async () => {
    const sb = await start({ faults: "POST /projects/{id}/pause: commit-then-fail(500)" });
    const r = await api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: { reason: "x" } });
    expect(r.status).toBe(500);
    expect(r.body.code).toBe("INTERNAL_ERROR");
    expect((await api(sb, "GET", `/projects/${EARLY_VOTE}`)).body.data.status).toBe("paused");
  });

  test("reset destroys the connection before answering, and nothing happens", async () => {
    const sb = await start({ faults: "POST *: reset" });
    await expect(api(sb, "POST", `/projects/${EARLY_VOTE}/pause`, { body: {} })).rejects.toThrow();
    expect(sb.store.world.projects[EARLY_VOTE]?.status).toBe("scheduled");
  });

  test("faults are managed at runtime through /_sandbox/faults and logged", async () => {
    const sb = await start({});
    expect((await admin(sb, "POST", "/faults", { spec: "nonsense" })).status).toBe(400);
    const added = await admin(sb, "POST", "/faults", { spec: "GET /organizations: status(500) n=1" });
    expect(added.body.data).toHaveLength(1);
    expect((await api(sb, "GET", "/organizations")).status).toBe(500);
    expect((await admin(sb, "GET", "/faults")).body.data[0].fired).toBe(1);
    const log = (await admin(sb, "GET", "/requests")).body.data;
    expect(log.requests[0]).toMatchObject({
      route: "/organizations",
      status: 500,
      fault: "GET /organizations: status(500) n=1",
    });
    await admin(sb, "DELETE", "/faults");
    expect((await admin(sb, "GET", "/faults")).body.data).toEqual([]);
  });

  test("virtual latency holds the answer until the clock moves", async () => {
    const sb = await start({ faults: "GET /organizations: latency(2s)" });
    const startedAt = sb.clock.nowMs();
    let done = false;
    const pending = api(sb, "GET", "/organizations").then((r) => {
      done = true;
      return r;
    });
    // The rule fires when the request reaches the pipeline, which then waits on the virtual clock.
    // Poll the sandbox's own record of it (no real-time sleep): once it has fired, the wait is armed.
    await until(async () => (await admin(sb, "GET", "/faults")).body.data[0].fired === 1);
    await api(sb, "GET", `/projects/${GOTV_REMINDER}`);
    expect(done).toBe(false);
    await sb.clock.advance(1999);
    // Another request answered after the advance: the held one is still not answered or logged.
    expect((await api(sb, "GET", `/projects/${GOTV_REMINDER}`)).status).toBe(200);
    expect(done).toBe(false);
    const routes = (await admin(sb, "GET", "/requests")).body.data.requests.map(
      (r: { route: string }) => r.route,
    );
    expect(routes).toEqual(["/projects/{id}", "/projects/{id}"]);
    await sb.clock.advance(1);
    const answered = await pending;
    expect(answered.status).toBe(200);
    const log = (await admin(sb, "GET", "/requests")).body.data.requests;
    expect(log.at(-1)).toMatchObject({
      route: "/organizations",
      status: 200,
      fault: "GET /organizations: latency(2s)",
    });
    expect(Date.parse(log.at(-1).at) - startedAt).toBe(2000);
  });
});

/** Polls `check` (each poll is a round trip to the sandbox) until it holds; fails after 2,000 polls. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i++) if (await check()) return;
  throw new Error("the sandbox never reached the expected state");
}
