/**
 * The sandbox's request path (src/sandbox/http/request-path.ts): a path with nothing to decode takes
 * the quick way, and both ways refuse the same paths (dot and empty segments, encoded slashes).
 */
import { expect, test } from "vitest";
import { parseRequestPath } from "../../src/sandbox/http/request-path.js";

test.each([
  ["/v1/projects/9a000000-0000-4000-8000-000000000001", true],
  ["/v1/projects/9a000000-0000-4000-8000-000000000001?page_size=5", true],
  ["/v1/projects/", true],
  ["/v1/.hidden", true],
  ["/v1/a..b", true],
  ["/v1/...", true],
  ["/v1/caf%C3%A9", true],
  ["/v1/./projects", false],
  ["/v1/../_sandbox/clock", false],
  ["/v1/projects/..", false],
  ["/v1/projects/.", false],
  ["/v1/%2e%2e/organizations", false],
  ["/v1/%2E/organizations", false],
  ["/v1//projects", false],
  ["/v1/projects//", false],
  ["/v1/a%2Fb", false],
  ["/v1/a%5Cb", false],
  ["/v1/a\\b", false],
  ["/v1/a%00", false],
  ["/v1/%zz", false],
  ["v1/projects", false],
])("%s: accepted %s", (url, ok) => {
  const parsed = parseRequestPath(url);
  expect(parsed.ok).toBe(ok);
  if (parsed.ok) expect(parsed.path).toBe(url.split("?")[0]);
});
