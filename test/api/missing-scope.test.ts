/**
 * A key without the permission a request needs (the contract's 403 with the authentication body) is
 * `api.missing-scope`, naming the scope: over real HTTP against the sandbox, a write-only key's
 * first read, a key without `public:write` sending; and `plan` with the fixture's write-only key
 * says that plan needs the read scope, in one error.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ApiClient, apiErrorDiagnostic, createApiClient } from "../../src/api/index.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { TEST_NOW } from "../helpers/clock.js";
import { runCli } from "../helpers/run-cli.js";
import { EARLY_VOTE, exampleFixture, ORG, WRITE_ONLY_KEY } from "../sandbox/helpers.js";

const READ_ONLY_SCOPE_KEY = "pc_live_sbx_rv_ro_scope_0000";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The example world, plus a read-write key that has only the read scope; frozen at TEST_NOW. */
async function sandbox(): Promise<SandboxHandle> {
  const fixture = exampleFixture();
  fixture.api_keys.push({
    id: "key_riverside_read_scope",
    key: READ_ONLY_SCOPE_KEY,
    organization_id: ORG,
    type: "read-write",
    scopes: ["public:read"],
  } as (typeof fixture.api_keys)[number]);
  const sb = await startSandbox({ fixture, start: TEST_NOW, timeScale: 0 });
  cleanups.push(() => sb.close());
  return sb;
}

function client(sb: SandboxHandle, apiKey: string): ApiClient {
  const c = createApiClient({
    baseUrl: sb.baseUrl,
    apiKey,
    clock: { now: () => sb.clock.now().getTime() },
    sleep: (ms) => sb.clock.advance(ms),
  });
  cleanups.push(() => c.close());
  return c;
}

describe("a key without the needed permission", () => {
  it("a write-only key reading: api.missing-scope naming public:read", async () => {
    const sb = await sandbox();
    const read = await client(sb, WRITE_ONLY_KEY).listOrganizations();
    if (read.ok) throw new Error("a write-only key read the organizations");
    const d = apiErrorDiagnostic(read.error);
    expect(d).toEqual({
      severity: "error",
      code: "api.missing-scope",
      message:
        "the API key may not read: GET /organizations answered 403 (Forbidden: A write-only API key cannot read this resource); plan and apply read live state first, so the key needs the scope public:read",
      hint: "Use a read-write key with the scopes public:read and public:write: a write-only key can send but cannot read, and campaignctl reads every project before it plans or sends",
    });
  });

  it("a key without public:write sending: api.missing-scope naming public:write", async () => {
    const sb = await sandbox();
    const sent = await client(sb, READ_ONLY_SCOPE_KEY).pauseProject(
      EARLY_VOTE,
      { reason: "storm" },
      "cc1-missing-scope-test-0000000001",
    );
    if (sent.ok) throw new Error("a key without public:write paused a project");
    const d = apiErrorDiagnostic(sent.error);
    expect(d.code).toBe("api.missing-scope");
    expect(d.message).toBe(
      "the API key may not write: POST /projects/{id}/pause answered 403 (Forbidden: API key lacks required scope: public:write); this request needs the scope public:write",
    );
    expect(d.hint).toBe(
      "Use a read-write key with the scopes public:read and public:write (this request needs public:write)",
    );
  });

  it("a 403 outside the key's organization tree stays api.forbidden", () => {
    const d = apiErrorDiagnostic({
      kind: "http",
      method: "GET",
      route: "GET /projects/{id}",
      path: "/projects/p1",
      status: 403,
      code: "ORG_ACCESS_DENIED",
      message: "Organization access denied",
      shape: "standard",
      correlationId: null,
      details: null,
      retryAfterSeconds: null,
      outcome: "none",
      attempts: 1,
    });
    expect(d.code).toBe("api.forbidden");
  });

  it("plan with the fixture's write-only key: one error saying plan needs the read scope", async () => {
    const sb = await sandbox();
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-missing-scope-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    cpSync("examples/gotv.yaml", join(dir, "gotv.yaml"));
    const r = await runCli(["plan", "--base-url", sb.baseUrl, "gotv.yaml"], {
      cwd: dir,
      env: { CAMPAIGNCTL_API_KEY: WRITE_ONLY_KEY },
    });
    expect(r.code).toBe(1);
    const errors = r.stderr.split("\n").filter((l) => l.includes("error["));
    expect(errors).toEqual([
      "error[api.missing-scope]: the API key may not read: GET /organizations answered 403 (Forbidden: A write-only API key cannot read this resource); plan and apply read live state first, so the key needs the scope public:read",
    ]);
    expect(r.stderr).toContain("hint: Use a read-write key with the scopes public:read and public:write");
    expect(r.stderr).not.toContain(WRITE_ONLY_KEY);
  });
});
