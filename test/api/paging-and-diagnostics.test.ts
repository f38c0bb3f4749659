import { describe, expect, it } from "vitest";
import { type ApiHttpError, apiErrorDiagnostic } from "../../src/api/index.js";
import { conversationData } from "./answer-data.js";
import { stubbedClient } from "./stub-server.js";

const KEY = "pc_live_paging_key_0000000000";
const page = (ids: string[], next: string | null) => ({
  status: 200,
  body: {
    success: true,
    data: {
      data: ids.map(conversationData),
      has_more: next !== null,
      next_cursor: next,
    },
  },
});

const bed = stubbedClient(KEY);

describe("cursor paging", () => {
  it("follows next_cursor until it is null and passes the query on every page", async () => {
    bed.stub.script(page(["c1", "c2"], "cur/1"), page(["c3"], null));
    const r = await bed.client.listAllConversations({ project_id: "p1", limit: 2 });
    expect(r.ok && r.value.map((c) => c.conversation_id)).toEqual(["c1", "c2", "c3"]);
    expect(bed.stub.seen.map((s) => s.url)).toEqual([
      "/v1/conversations?project_id=p1&limit=2",
      "/v1/conversations?project_id=p1&limit=2&cursor=cur%2F1",
    ]);
  });

  it("stops with an error when the server repeats a cursor", async () => {
    bed.stub.script(page(["c1"], "again"), page(["c2"], "again"), page(["c3"], "again"));
    const r = await bed.client.listAllConversations();
    expect(!r.ok && r.error).toMatchObject({ kind: "network", cause: "malformed-response" });
    expect(bed.stub.seen).toHaveLength(2);
  });

  it("yields the first failure and ends", async () => {
    bed.stub.script(page(["c1"], "n1"), {
      status: 400,
      body: { error: "too old", code: "VALIDATION_ERROR" },
    });
    const results = [];
    for await (const p of bed.client.conversationPages()) results.push(p.ok);
    expect(results).toEqual([true, false]);
  });
});

describe("apiErrorDiagnostic", () => {
  const base: ApiHttpError = {
    kind: "http",
    method: "POST",
    route: "POST /projects/{id}/schedule",
    path: "/projects/p1/schedule",
    status: 400,
    code: "VALIDATION_ERROR",
    message: "Project must be in ready.",
    shape: "standard",
    correlationId: "corr-1",
    details: null,
    retryAfterSeconds: null,
    outcome: "none",
    attempts: 1,
  };

  it("names route, status and code, without a trailing period", () => {
    const d = apiErrorDiagnostic(base);
    expect(d.code).toBe("api.rejected");
    expect(d.message).toBe(
      "POST /projects/{id}/schedule answered 400 VALIDATION_ERROR: Project must be in ready (correlation id corr-1)",
    );
  });

  it("maps statuses and unknown outcomes to their codes", () => {
    expect(apiErrorDiagnostic({ ...base, status: 401, code: "UNAUTHORIZED" }).code).toBe("api.unauthorized");
    expect(apiErrorDiagnostic({ ...base, status: 403 }).code).toBe("api.forbidden");
    expect(apiErrorDiagnostic({ ...base, status: 404 }).code).toBe("api.not-found");
    expect(apiErrorDiagnostic({ ...base, status: 500, outcome: "unknown" }).code).toBe("api.unknown-outcome");
    expect(apiErrorDiagnostic({ ...base, status: 503, outcome: "none" }).code).toBe("api.server-error");
  });
});
