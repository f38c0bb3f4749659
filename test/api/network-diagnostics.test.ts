/**
 * A run without a network (issue 25 item 5 g): every read fails alike, and the user gets one
 * diagnostic that names the host once, with a hint by cause, instead of one per request. The
 * connection-refused case goes over real loopback (a port nothing listens on); the DNS case, which
 * would need a resolver beyond loopback, is built from the error the client returns.
 */
import { describe, expect, it } from "vitest";
import type { ApiNetworkError } from "../../src/api/index.js";
import { apiErrorsDiagnostics, createApiClient } from "../../src/api/index.js";
import { fakeTime } from "./stub-server.js";

const dns = (path: string): ApiNetworkError => ({
  method: "GET",
  route: `GET ${path}`,
  path,
  kind: "network",
  cause: "dns",
  errorCode: "ENOTFOUND",
  status: null,
  host: "api.politicalcomms.com",
  message: `GET ${path}: host name api.politicalcomms.com did not resolve (ENOTFOUND)`,
  outcome: "none",
  attempts: 4,
});

describe("network failures, named once", () => {
  it("four reads to a port nothing listens on: one diagnostic naming the host and the reads", async () => {
    const time = fakeTime();
    const dead = createApiClient({
      baseUrl: "http://127.0.0.1:1/v1",
      apiKey: "live_test_key",
      clock: time.clock,
      sleep: time.sleep,
      random: () => 0,
      retry: { maxAttempts: 1 },
    });
    const reads = await Promise.all([
      dead.listOrganizations(),
      dead.listTenDlcCampaigns(),
      dead.listContactLists(),
      dead.listPhoneNumbers(),
    ]);
    await dead.close();
    const errors = reads.flatMap((r) => (r.ok ? [] : [r.error]));
    expect(errors).toHaveLength(4);
    expect(errors[0]?.message).toBe("GET /organizations: 127.0.0.1:1 refused the connection (ECONNREFUSED)");
    const ds = apiErrorsDiagnostics(errors);
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ severity: "error", code: "api.network" });
    expect(ds[0]?.message).toMatch(
      /^127\.0\.0\.1:1 refused the connection \(ECONNREFUSED\): 4 requests failed \(GET \/organizations, GET \/campaigns, GET \/contact-lists, GET \/phone-numbers\)$/,
    );
    expect(ds[0]?.message.match(/127\.0\.0\.1/g)).toHaveLength(1);
    expect(ds[0]?.hint).toContain("is the server, or `campaignctl sandbox`, running?");
  });

  it("no DNS: the host once, and a hint about the network", () => {
    const ds = apiErrorsDiagnostics(
      ["/organizations", "/campaigns", "/contact-lists", "/phone-numbers"].map(dns),
    );
    expect(ds.map((d) => d.code)).toEqual(["api.network"]);
    expect(ds[0]?.message).toBe(
      "host name api.politicalcomms.com did not resolve (ENOTFOUND): 4 requests failed (GET /organizations, GET /campaigns, GET /contact-lists, GET /phone-numbers)",
    );
    expect(ds[0]?.hint).toContain("this machine's network and DNS (is it online?)");
  });

  it("one failure keeps its own message; other failures stay apart", () => {
    expect(apiErrorsDiagnostics([dns("/organizations")]).map((d) => d.message)).toEqual([
      "GET /organizations: host name api.politicalcomms.com did not resolve (ENOTFOUND)",
    ]);
    const other = { ...dns("/campaigns"), host: "proxy.example.com" };
    expect(apiErrorsDiagnostics([dns("/organizations"), other])).toHaveLength(2);
  });
});
