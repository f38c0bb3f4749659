/** GET /email/campaigns and GET /email/domains/{id} over HTTP: pages, filters and their bounds, scope. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import { expectConversationShape } from "./contract-shapes-conversations.js";
import { conversationSandbox, DOMAIN_CHILD, DOMAIN_PARENT } from "./conversations-world.js";
import { api, CHILD_KEY } from "./helpers.js";

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await conversationSandbox();
});
afterAll(() => sb.close());

const names = (body: { data: { data: { name: string }[] } }) => body.data.data.map((c) => c.name);

describe("GET /email/campaigns", () => {
  it("lists the email-enabled organizations' campaigns, newest first, in cursor pages", async () => {
    const all = await api(sb, "GET", "/email/campaigns");
    expect(all.status).toBe(200);
    expectConversationShape("emailCampaignPage", all.body);
    expect(names(all.body)).toHaveLength(7);
    expect(names(all.body)[0]).toBe("Youth Rally Invite 7");
    expect(names(all.body)).not.toContain("Donor Thanks");
    expect(all.body.data).toMatchObject({ has_more: false, next_cursor: null });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await api(sb, "GET", `/email/campaigns?limit=3${q}`);
      expectConversationShape("emailCampaignPage", page.body);
      seen.push(...names(page.body));
      cursor = page.body.data.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(names(all.body));
    const child = await api(sb, "GET", "/email/campaigns", { key: CHILD_KEY });
    expect(names(child.body)).toEqual(names(all.body));
  });

  it("filters by status and case-insensitive name substring", async () => {
    const drafts = await api(sb, "GET", "/email/campaigns?status=draft");
    expect(names(drafts.body).sort()).toEqual([
      "Volunteer Digest 2",
      "Youth Rally Invite 1",
      "Youth Rally Invite 3",
    ]);
    const search = await api(sb, "GET", "/email/campaigns?search=RALLY%20inv&status=completed");
    expect(names(search.body)).toEqual(["Youth Rally Invite 7", "Youth Rally Invite 5"]);
    const page = await api(sb, "GET", "/email/campaigns?search=rally&limit=1");
    const next = encodeURIComponent(page.body.data.next_cursor);
    expect((await api(sb, "GET", `/email/campaigns?search=rally&limit=1&cursor=${next}`)).status).toBe(200);
    expect((await api(sb, "GET", `/email/campaigns?search=digest&cursor=${next}`)).status).toBe(400);
  });

  it("bounds: limit 1 to 200, the ten statuses, search up to 255, cursor up to 4096", async () => {
    for (const ok of ["limit=1", "limit=200", "status=deleted", `search=${"a".repeat(255)}`])
      expect((await api(sb, "GET", `/email/campaigns?${ok}`)).status, ok).toBe(200);
    for (const bad of [
      "limit=0",
      "limit=201",
      "status=archived",
      `search=${"a".repeat(256)}`,
      `cursor=${"c".repeat(4097)}`,
      "cursor=garbage",
    ]) {
      const r = await api(sb, "GET", `/email/campaigns?${bad}`);
      expect(r.status, bad.slice(0, 20)).toBe(400);
      expectShape("validationError", r.body);
    }
  });
});

describe("GET /email/domains/{id}", () => {
  it("returns the sending domain; unknown is 404, out of scope 403, without email 403 EMAIL_EARLY_ACCESS", async () => {
    const r = await api(sb, "GET", `/email/domains/${DOMAIN_CHILD}`);
    expect(r.status).toBe(200);
    expectConversationShape("sendingDomain", r.body);
    expect(r.body.data).toMatchObject({
      id: DOMAIN_CHILD,
      domain: "mail.youngdems.example",
      status: "pending",
    });
    expect(r.body.data).not.toHaveProperty("organization_id");
    const unknown = await api(sb, "GET", "/email/domains/e3000000-0000-4000-8000-00000000dead", {
      key: CHILD_KEY,
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, "NOT_FOUND"]);
    const outOfScope = await api(sb, "GET", `/email/domains/${DOMAIN_PARENT}`, { key: CHILD_KEY });
    expect([outOfScope.status, outOfScope.body.code]).toEqual([403, "ORG_ACCESS_DENIED"]);
    const closed = await api(sb, "GET", `/email/domains/${DOMAIN_PARENT}`);
    expect([closed.status, closed.body.code]).toEqual([403, "EMAIL_EARLY_ACCESS"]);
  });
});
