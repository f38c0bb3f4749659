/**
 * Every success answer's `data` is checked against its endpoint's schema (src/api/response-schemas.ts)
 * before a caller reads it, over real HTTP on loopback against a scripted server: an answer that does
 * not fit is `malformed-response` naming what is wrong, a read's is retried like any transport
 * failure, a write's outcome is unknown (it may have been done), and `plan` says it per project
 * instead of ending in an internal error.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { ApiResult } from "../../src/api/index.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { runCli } from "../helpers/run-cli.js";
import { liveProject } from "../plan/builders.js";
import { EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";
import { conversationData, organizationData } from "./answer-data.js";
import { stubbedClient } from "./stub-server.js";

const KEY = "pc_live_shape_key_0000000000";
const IDEM = "cc1-shape-key-0123456789abcdef";
const ok = (data: unknown) => ({ status: 200, body: { success: true, data } });

const bed = stubbedClient(KEY);

describe("a read whose answer does not have the contract's shape", () => {
  const cases: readonly [string, () => Promise<ApiResult<unknown>>, unknown, string][] = [
    [
      "a project with no status",
      () => bed.client.getProject("p1"),
      { ...liveProject(), status: undefined },
      "data has no status",
    ],
    [
      "a project status the contract does not list",
      () => bed.client.getProject("p1"),
      liveProject({ status: "archived" as never }),
      'data.status is "archived", not one of the contract\'s values',
    ],
    ["organizations as an object", () => bed.client.listOrganizations(), {}, "data must be array"],
    [
      "an organization's name as a number",
      () => bed.client.listOrganizations(),
      [organizationData("o1"), { ...organizationData("o2"), display_name: 7 }],
      "data[1].display_name must be string",
    ],
    [
      "a conversation page without its cursor",
      () => bed.client.listConversations(),
      { data: [conversationData("c1")], has_more: false },
      "data has no next_cursor",
    ],
  ];
  for (const [name, call, data, problem] of cases)
    it(`is malformed-response, retried, naming what is wrong: ${name}`, async () => {
      bed.stub.script(ok(data), ok(data), ok(data), ok(data));
      const r = await call();
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatchObject({
        kind: "network",
        cause: "malformed-response",
        status: 200,
        outcome: "none",
        attempts: 4,
      });
      expect((!r.ok && r.error.message) || "").toMatch(
        new RegExp(`HTTP 200 but ${problem.replace(/[[\].()]/g, "\\$&")}$`),
      );
      expect(bed.stub.seen).toHaveLength(4);
    });

  it("is read as soon as an attempt answers in the contract's shape", async () => {
    bed.stub.script(ok({}), ok(liveProject()));
    const r = await bed.client.getProject("p1");
    expect(r.ok && r.value.status).toBe("draft");
    expect(bed.stub.seen).toHaveLength(2);
  });
});

it("a write whose answer does not have the contract's shape has an unknown outcome (it may have been done)", async () => {
  bed.stub.script({ status: 202, body: { success: true, data: { status: "awaiting_test" } } });
  const r = await bed.client.testProject("p1", { test_contacts: [{ phone: "+15035550100" }] }, IDEM);
  expect(!r.ok && r.error).toMatchObject({ cause: "malformed-response", outcome: "unknown", status: 202 });
  expect(bed.stub.seen).toHaveLength(1);
});

it("plan against an API whose project answers lack their status: each project unreadable, said per project, exit 1", async () => {
  const sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, rateLimits: false });
  // Forwards to the sandbox; a project's answer loses its `status` on the way.
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const upstream = await fetch(new URL(req.url ?? "/", sb.baseUrl.replace(/\/v1$/, "")), {
        method: req.method ?? "GET",
        headers: { "x-api-key": String(req.headers["x-api-key"] ?? "") },
        ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }),
      });
      let text = await upstream.text();
      if (/^\/v1\/projects\/[0-9a-f-]{36}$/.test(req.url ?? "") && upstream.ok) {
        const body = JSON.parse(text);
        delete body.data.status;
        text = JSON.stringify(body);
      }
      res.writeHead(upstream.status, {
        "content-type": "application/json",
        date: upstream.headers.get("date") ?? "",
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  try {
    const port = (proxy.address() as AddressInfo).port;
    const run = await runCli(["plan", "examples/", "--base-url", `http://127.0.0.1:${port}/v1`], {
      env: { CAMPAIGNCTL_API_KEY: PARENT_KEY },
      clock: () => sb.clock.nowMs(),
    });
    expect(run.stderr).not.toContain("internal error");
    const unreadable = run.stdout.split("\n").filter((l) => l.includes("error[plan.project-unreadable]"));
    expect(unreadable.length).toBeGreaterThan(0);
    for (const line of unreadable) expect(line).toMatch(/HTTP 200 but data has no status\)$/);
    expect(run.code).toBe(1);
  } finally {
    proxy.close();
    await sb.close();
  }
});
