import { describe, expect, it } from "vitest";
import { checkBaseUrl, isLoopbackHost, resolveApiKey, resolveBaseUrl } from "../../src/api/index.js";
import { PRODUCTION_BASE_URL } from "../../src/contract/limits.js";

describe("resolveApiKey", () => {
  it.each(["pc_live_abc123def456", "my key", "sk-123=abc", "1ABC", ""])(
    "refuses --api-key-env %j without echoing it",
    (name) => {
      const r = resolveApiKey({ [name]: "pc_live_x" }, name);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.diagnostic.code).toBe("api.bad-key-env");
      if (name !== "") expect(JSON.stringify(r.diagnostic)).not.toContain(name);
    },
  );

  it("returns the key from the default variable, trimmed", () => {
    expect(resolveApiKey({ CAMPAIGNCTL_API_KEY: "  pc_live_abc123  " })).toEqual({
      ok: true,
      value: "pc_live_abc123",
    });
  });

  it("reads a custom variable name", () => {
    expect(resolveApiKey({ OTHER_KEY: "pc_live_x", CAMPAIGNCTL_API_KEY: "pc_live_y" }, "OTHER_KEY")).toEqual({
      ok: true,
      value: "pc_live_x",
    });
  });

  it("names the variable when it is missing", () => {
    const r = resolveApiKey({}, "MY_KEY");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic.code).toBe("api.no-key");
    expect(r.diagnostic.message).toContain("MY_KEY");
    expect(r.diagnostic.message).toContain("not set");
  });

  it("treats a blank value as missing and never echoes any environment value", () => {
    const env = { CAMPAIGNCTL_API_KEY: "   ", UNRELATED: "pc_live_secret_value" };
    const r = resolveApiKey(env);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic.message).toContain("empty");
    expect(JSON.stringify(r)).not.toContain("pc_live_secret_value");
  });
});

describe("resolveBaseUrl", () => {
  it("defaults to production", () => {
    expect(resolveBaseUrl(undefined, {})).toEqual({ ok: true, value: PRODUCTION_BASE_URL });
  });

  it("prefers the flag over the environment, which beats the default", () => {
    const env = { CAMPAIGNCTL_BASE_URL: "https://env.example.com/v1" };
    expect(resolveBaseUrl("https://flag.example.com/v1/", env)).toEqual({
      ok: true,
      value: "https://flag.example.com/v1",
    });
    expect(resolveBaseUrl(undefined, env)).toEqual({ ok: true, value: "https://env.example.com/v1" });
    expect(resolveBaseUrl("", env)).toEqual({ ok: true, value: "https://env.example.com/v1" });
  });

  it.each([
    ["http://127.0.0.1:4011", "flag"],
    ["http://127.0.0.1:4011/", "flag"],
    ["https://api.politicalcomms.com", "env"],
  ] as const)("a base URL without /v1 (%s from the %s) says so, with the URL to give", (url, source) => {
    const origin = new URL(url).origin;
    const resolved =
      source === "flag" ? resolveBaseUrl(url, {}) : resolveBaseUrl(undefined, { CAMPAIGNCTL_BASE_URL: url });
    expect(resolved).toMatchObject({
      ok: false,
      diagnostic: {
        code: "api.bad-url",
        message: `The API base URL from ${source === "flag" ? "--base-url" : "CAMPAIGNCTL_BASE_URL"} (${origin}) lacks the /v1 path: the API's routes are under ${origin}/v1`,
      },
    });
    expect(resolved.ok ? "" : resolved.diagnostic.hint).toContain(`Add /v1: ${origin}/v1`);
    // A path prefix of a proxy is the user's to choose.
    expect(checkBaseUrl(`${origin}/politicalcomms`).ok).toBe(true);
  });

  it.each([
    "http://127.0.0.1:8080/v1",
    "http://127.9.3.1/v1",
    "http://[::1]:4010/v1",
    "http://localhost:4010/v1",
    "http://LOCALHOST/v1",
  ])("allows plain http to loopback %s", (url) => {
    expect(checkBaseUrl(url).ok).toBe(true);
  });

  it.each([
    "http://api.politicalcomms.com/v1",
    "http://128.0.0.1/v1",
    "http://10.0.0.5/v1",
    "http://localhost.evil.com/v1",
    "http://[::2]/v1",
  ])("refuses plain http to %s", (url) => {
    const r = checkBaseUrl(url, "env");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic.code).toBe("api.insecure-url");
    expect(r.diagnostic.message).toContain("CAMPAIGNCTL_BASE_URL");
  });

  it.each([
    "not a url",
    "ftp://example.com/v1",
    "https://u:pw@example.com/v1",
    "https://example.com/v1?x=1",
    "api.example.com",
  ])("reports a malformed URL %s as api.bad-url", (url) => {
    const r = checkBaseUrl(url);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic.code).toBe("api.bad-url");
    expect(r.diagnostic.message).not.toContain("pw");
  });

  it.each([
    ["api.example.com/v1", "https://api.example.com/v1"],
    ["localhost:4011/v1", "http://localhost:4011/v1"],
    ["127.0.0.1:4011/v1", "http://127.0.0.1:4011/v1"],
  ])("a base URL without its scheme (%s) says which to add", (url, meant) => {
    const r = checkBaseUrl(url);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic.code).toBe("api.bad-url");
    expect(r.diagnostic.message).toContain("has no scheme");
    expect(r.diagnostic.hint?.startsWith(`Write ${meant}`)).toBe(true);
  });

  it("user:password@ without a scheme is never shown", () => {
    const r = checkBaseUrl("u:pw@example.com/v1");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(`${r.diagnostic.message} ${r.diagnostic.hint}`).not.toContain("pw");
  });
});

describe("isLoopbackHost", () => {
  it("recognizes the loopback ranges only", () => {
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("127.255.255.254")).toBe(true);
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("127.0.0.256")).toBe(false);
    expect(isLoopbackHost("example.com")).toBe(false);
  });
});
