/** Email early access and POST /email/lists/{id}/contacts over HTTP: gate, bounds, row verdicts, suppressions. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import { expectConversationShape } from "./contract-shapes-conversations.js";
import {
  conversationSandbox,
  DOMAIN_CHILD,
  EMAIL_LIST_CHILD,
  EMAIL_LIST_PARENT,
} from "./conversations-world.js";
import { admin, api, CHILD_KEY, CHILD_ORG, exampleFixture, sandbox } from "./helpers.js";

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await conversationSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await admin(sb, "POST", "/reset");
});

const upsert = (contacts: unknown[], list = EMAIL_LIST_CHILD, key?: string) =>
  api(sb, "POST", `/email/lists/${list}/contacts`, { body: { contacts }, ...(key ? { key } : {}) });
const rows = (n: number, prefix = "voter") =>
  Array.from({ length: n }, (_, i) => ({
    email: `${prefix}${i}@example.org`,
    fields: { first_name: `V${i}` },
  }));

describe("email early access", () => {
  it("every email endpoint is 403 EMAIL_EARLY_ACCESS without email_available", async () => {
    const world = exampleFixture();
    for (const o of world.organizations) delete o.email_available;
    const plain = await sandbox({ fixture: world });
    try {
      for (const [method, path, body] of [
        ["POST", `/email/lists/${EMAIL_LIST_CHILD}/contacts`, { contacts: [] }],
        ["GET", "/email/campaigns?limit=0", undefined],
        ["GET", `/email/domains/${DOMAIN_CHILD}`, undefined],
        // The contract's other email endpoints (templates, senders, suppressions, lists, sending
        // domains), which the sandbox does not emulate, answer as early access too, not 404.
        ["GET", "/email/templates", undefined],
        ["GET", "/email/senders", undefined],
        ["GET", "/email/suppressions", undefined],
        ["POST", "/email/lists", { name: "Volunteers" }],
        ["GET", `/email/lists/${EMAIL_LIST_CHILD}`, undefined],
        ["GET", "/email/domains", undefined],
        ["DELETE", `/email/campaigns/${DOMAIN_CHILD}`, undefined],
      ] as const) {
        const r = await api(plain, method, path, body === undefined ? {} : { body });
        expect([r.status, r.body.code], path).toEqual([403, "EMAIL_EARLY_ACCESS"]);
        expectShape("standardError", r.body);
      }
    } finally {
      await plain.close();
    }
  });

  it("an email endpoint the sandbox does not emulate is 404 once email is available", async () => {
    const r = await api(sb, "GET", "/email/templates");
    expect([r.status, r.body.code]).toEqual([404, "NOT_FOUND"]);
    expectShape("standardError", r.body);
  });

  it("the record's organization opens the door; other organizations' records stay closed", async () => {
    expect((await upsert(rows(1))).status).toBe(200);
    const parentList = await upsert(rows(1), EMAIL_LIST_PARENT);
    expect([parentList.status, parentList.body.code]).toEqual([403, "EMAIL_EARLY_ACCESS"]);
    const childOnParent = await upsert(rows(1), EMAIL_LIST_PARENT, CHILD_KEY);
    expect([childOnParent.status, childOnParent.body.code]).toEqual([403, "ORG_ACCESS_DENIED"]);
    const unknown = await upsert(rows(1), "e2000000-0000-4000-8000-00000000dead", CHILD_KEY);
    expect([unknown.status, unknown.body.code]).toEqual([404, "NOT_FOUND"]);
    expectShape("standardError", unknown.body);
  });
});

describe("POST /email/lists/{id}/contacts", () => {
  it("accepts 1 and 1000 contacts; 0 and 1001 are 400", async () => {
    const one = await upsert(rows(1));
    expect(one.status).toBe(200);
    expectConversationShape("bulkUpsert", one.body);
    expect(one.body.data).toEqual({
      written: 1,
      accepted: 1,
      rejected: 0,
      duplicates: 0,
      results: [{ index: 0, email: "voter0@example.org", status: "accepted", reason: null }],
    });
    const thousand = await upsert(rows(1000, "bulk"));
    expect(thousand.status).toBe(200);
    expect(thousand.body.data).toMatchObject({ written: 1000, accepted: 1000, rejected: 0, duplicates: 0 });
    expect(sb.store.world.emailLists[EMAIL_LIST_CHILD]?.contacts).toHaveLength(1001);
    for (const n of [0, 1001]) {
      const r = await upsert(rows(n));
      expect(r.status, String(n)).toBe(400);
      expectShape("validationError", r.body);
      expect(r.body.details[0].path).toEqual(["contacts"]);
    }
    expect((await api(sb, "POST", `/email/lists/${EMAIL_LIST_CHILD}/contacts`, { body: {} })).status).toBe(
      400,
    );
  });

  it("judges each row: invalid rows are rejected with a reason, duplicates flagged, valid rows written", async () => {
    const r = await upsert([
      {
        email: "Ana@Example.org",
        fields: { first_name: "Ana" },
        consent_source: "rally signup",
        consent_at: "2026-11-01T10:00:00Z",
        tier: "gold",
      },
      { email: "not-an-email" },
      { email: `${"a".repeat(310)}@example.org` },
      { email: "ana@example.ORG", fields: { first_name: "Dup" } },
      { fields: { first_name: "NoEmail" } },
      { email: "ben@example.org", consent_source: "x".repeat(256) },
      { email: "cy@example.org", consent_at: "last tuesday" },
      { email: "dee@example.org", fields: "oops" },
      "just a string",
      { email: "eve@example.org", consent_source: "y".repeat(255) },
    ]);
    expect(r.status).toBe(200);
    expectConversationShape("bulkUpsert", r.body);
    const statuses = r.body.data.results.map((x: { status: string }) => x.status);
    expect(statuses).toEqual([
      "accepted",
      "rejected",
      "rejected",
      "duplicate",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
      "accepted",
    ]);
    expect(r.body.data).toMatchObject({ written: 2, accepted: 2, rejected: 7, duplicates: 1 });
    const reasons = r.body.data.results.map((x: { reason: string | null }) => x.reason);
    expect(reasons[1]).toBe("invalid email syntax");
    expect(reasons[2]).toMatch(/^too long/);
    expect(reasons[3]).toBe("duplicate of row 0");
    expect(r.body.data.results.map((x: { index: number }) => x.index)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    const stored = sb.store.world.emailLists[EMAIL_LIST_CHILD]?.contacts ?? [];
    expect(stored.map((c) => c.email)).toEqual(["Ana@Example.org", "eve@example.org"]);
    expect(stored[0]).toMatchObject({
      fields: { first_name: "Ana" },
      consent_source: "rally signup",
      extra: { tier: "gold" },
    });

    const again = await upsert([{ email: "ana@example.org", fields: { ward: "3" } }]);
    expect(again.body.data.results[0].status).toBe("accepted");
    expect(sb.store.world.emailLists[EMAIL_LIST_CHILD]?.contacts[0]?.fields).toEqual({
      first_name: "Ana",
      ward: "3",
    });
    expect(sb.store.world.emailLists[EMAIL_LIST_CHILD]?.contacts).toHaveLength(2);
  });

  it("suppressions survive a re-import: the address is written but stays suppressed", async () => {
    const fromFixture = await upsert([{ email: "gone@example.com" }]);
    expect(fromFixture.body.data.results[0]).toMatchObject({
      status: "accepted",
      reason: expect.stringMatching(/^suppressed address/),
    });
    const add = await admin(sb, "POST", "/email/suppressions", {
      organization_id: CHILD_ORG,
      email: "Zed@Example.org",
    });
    expect(add.status).toBe(201);
    await upsert([{ email: "zed@example.org" }]);
    const reimport = await upsert([
      { email: "ZED@example.org", fields: { first_name: "Zed" } },
      { email: "new@example.org" },
    ]);
    expect(reimport.body.data.results.map((x: { reason: string | null }) => x.reason)).toEqual([
      expect.stringMatching(/^suppressed address/),
      null,
    ]);
    const suppressions = await admin(sb, "GET", `/email/suppressions?organization_id=${CHILD_ORG}`);
    expect(suppressions.body.data.map((s: { email: string }) => s.email).sort()).toEqual([
      "gone@example.com",
      "zed@example.org",
    ]);
  });
});
