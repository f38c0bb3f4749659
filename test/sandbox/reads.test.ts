import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { expectShape } from "./contract-shapes.js";
import {
  api,
  BRAND,
  CHILD_KEY,
  CHILD_ORG,
  GOTV_REMINDER,
  ORG,
  PARENT_KEY,
  sandbox,
  TCR_CAMPAIGN,
  VOLUNTEERS,
} from "./helpers.js";

const TFV = "7f1a2c3d-0000-4000-8000-000000000001";
const MEDIA = "f1000000-0000-4000-8000-000000000001";
const SHARED = "a1000000-0000-4000-8000-000000000002";

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

describe("GET /organizations", () => {
  test.each([
    [PARENT_KEY, [ORG, CHILD_ORG]],
    [CHILD_KEY, [CHILD_ORG]],
  ])("key %s sees its organization and descendants", async (key, expected) => {
    const r = await api(sb, "GET", "/organizations", { key });
    expect(r.status).toBe(200);
    expectShape("organizations", r.body);
    expect(r.body.data.map((o: { id: string }) => o.id)).toEqual(expected);
  });

  test("parent_org_name is null for a root and the parent's name for a child", async () => {
    const r = await api(sb, "GET", "/organizations");
    expect(r.body.data.map((o: { parent_org_name: string | null }) => o.parent_org_name)).toEqual([
      null,
      "Riverside Democrats",
    ]);
  });
});

describe("GET /projects/{id}", () => {
  test("returns the project in the contract's shape", async () => {
    const r = await api(sb, "GET", `/projects/${VOLUNTEERS}`);
    expect(r.status).toBe(200);
    expectShape("project", r.body);
    expect(r.body.data).toMatchObject({
      project_id: VOLUNTEERS,
      channel: "toll-free",
      protocol: "mms",
      media_urls: [expect.stringContaining("rally-flyer.png")],
      link_tracking_enabled: true,
      pause_reason: null,
    });
  });

  test.each([
    ["unknown project", PARENT_KEY, "9a000000-0000-4000-8000-00000000dead", 404, "PROJECT_NOT_FOUND"],
    ["parent project seen by a child key", CHILD_KEY, GOTV_REMINDER, 403, "ORG_ACCESS_DENIED"],
  ])("%s", async (_name, key, id, status, code) => {
    const r = await api(sb, "GET", `/projects/${id}`, { key });
    expect(r.status).toBe(status);
    expectShape("standardError", r.body);
    expect(r.body.code).toBe(code);
  });
});

describe("GET /phone-numbers", () => {
  test("the parent sees its three numbers as owned rows", async () => {
    const r = await api(sb, "GET", "/phone-numbers");
    expectShape("phoneNumbers", r.body);
    expect(r.body.data.map((n: { number: string; shared: boolean }) => [n.number, n.shared])).toEqual([
      ["+15035550101", false],
      ["+15035550102", false],
      ["+18445550103", false],
    ]);
    expect(r.body.data[2]).toMatchObject({
      owner_type: "toll_free_registration",
      brand_id: null,
      tf_verification_status: "Verified",
    });
  });

  test("a child sees the number shared with it, with owner-side names and brand_id null", async () => {
    const r = await api(sb, "GET", "/phone-numbers", { key: CHILD_KEY });
    expectShape("phoneNumbers", r.body);
    expect(r.body.data).toEqual([
      expect.objectContaining({
        id: SHARED,
        shared: true,
        nickname: "Youth Outreach Line",
        brand_id: null,
        brand_name: null,
        campaign_name: null,
        toll_free_registration_name: null,
        org_id: CHILD_ORG,
        campaign_id: TCR_CAMPAIGN,
      }),
    ]);
  });

  test.each([
    ["channel=toll-free", ["+18445550103"]],
    ["channel=10dlc", ["+15035550101", "+15035550102"]],
    ["owner_type=unassigned", []],
    [`brand_id=${BRAND}`, ["+15035550101", "+15035550102"]],
    [`campaign_id=${TCR_CAMPAIGN}`, ["+15035550101", "+15035550102"]],
    [`organization_id=${CHILD_ORG}`, ["+15035550102"]],
  ])("filter %s", async (q, numbers) => {
    const r = await api(sb, "GET", `/phone-numbers?${q}`);
    expect(r.status).toBe(200);
    expect(r.body.data.map((n: { number: string }) => n.number)).toEqual(numbers);
  });

  test.each([
    ["channel=fax", 400, "VALIDATION_ERROR"],
    ["owner_type=nobody", 400, "VALIDATION_ERROR"],
  ])("bad filter %s", async (q, status, code) => {
    const r = await api(sb, "GET", `/phone-numbers?${q}`);
    expect(r.status).toBe(status);
    expectShape("validationError", r.body);
    expect(r.body.code).toBe(code);
  });

  test("an organization filter outside the key's tree is ORG_ACCESS_DENIED", async () => {
    const r = await api(sb, "GET", `/phone-numbers?organization_id=${ORG}`, { key: CHILD_KEY });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("ORG_ACCESS_DENIED");
  });
});

describe("registrations and assets", () => {
  test("GET /toll-free-verifications/{id} lists its covered numbers", async () => {
    const r = await api(sb, "GET", `/toll-free-verifications/${TFV}`);
    expectShape("tollFreeVerification", r.body);
    expect(r.body.data).toMatchObject({ status: "Verified", phone_number_count: 1, rejection_reason: null });
  });

  test("GET /media/{id}", async () => {
    const r = await api(sb, "GET", `/media/${MEDIA}`);
    expectShape("media", r.body);
    expect(r.body.data).toMatchObject({
      name: "rally-flyer.png",
      status: "ready",
      content_type: "image/png",
    });
  });

  test("GET /campaigns and GET /contact-lists with filters", async () => {
    const campaigns = await api(sb, "GET", `/campaigns?brand_id=${BRAND}`);
    expectShape("campaigns", campaigns.body);
    expect(campaigns.body.data).toEqual([
      expect.objectContaining({ name: "GOTV 2026", campaign_status: "MNO_PROVISIONED" }),
    ]);
    const lists = await api(sb, "GET", "/contact-lists");
    expectShape("contactLists", lists.body);
    // Suppression lists are contact lists too: a project's suppression_list_ids resolve here.
    expect(lists.body.data.map((l: { name: string }) => l.name)).toEqual([
      "Ward 3 Likely Voters",
      "Volunteer Prospects",
      "Ward 3 Spanish Speakers",
      "Do Not Text",
    ]);
    const none = await api(sb, "GET", `/contact-lists?brand_id=nope`);
    expect(none.body.data).toEqual([]);
  });

  test.each([
    [`/toll-free-verifications/${TFV}`, 403, "ORG_ACCESS_DENIED"],
    [`/media/${MEDIA}`, 403, "ORG_ACCESS_DENIED"],
    ["/media/f1000000-0000-4000-8000-00000000beef", 404, "NOT_FOUND"],
    ["/toll-free-verifications/nope", 404, "NOT_FOUND"],
  ])("child key on %s", async (path, status, code) => {
    const r = await api(sb, "GET", path, { key: CHILD_KEY });
    expect(r.status).toBe(status);
    expectShape("standardError", r.body);
    expect(r.body.code).toBe(code);
  });

  test("a child key lists none of the parent's campaigns or lists", async () => {
    expect((await api(sb, "GET", "/campaigns", { key: CHILD_KEY })).body.data).toEqual([]);
    expect((await api(sb, "GET", "/contact-lists", { key: CHILD_KEY })).body.data).toEqual([]);
  });
});

describe("unknown routes and bodies", () => {
  test.each([
    ["GET", "/v1/nothing-here"],
    ["DELETE", `/v1/projects/${GOTV_REMINDER}`],
    ["GET", "/elsewhere"],
  ])("%s %s is a 404 standard error", async (method, path) => {
    const res = await fetch(`${sb.rootUrl}${path}`, { method, headers: { "x-api-key": PARENT_KEY } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = (await res.json()) as { code: string };
    expectShape("standardError", body);
    expect(body.code).toBe("NOT_FOUND");
  });

  test("malformed JSON is a 400 VALIDATION_ERROR", async () => {
    const r = await api(sb, "POST", `/projects/${GOTV_REMINDER}/pause`, { rawBody: "{not json" });
    expect(r.status).toBe(400);
    expectShape("validationError", r.body);
  });
});
