/**
 * The pass's processes start without NODE_EXTRA_CA_CERTS (test/support/child-env.ts, a global
 * setup): a test's worker has not got it, and neither has a process the test starts with the
 * environment it inherits.
 */
import { execFileSync } from "node:child_process";
import { expect, test } from "vitest";

test("neither the worker nor a child it starts reads NODE_EXTRA_CA_CERTS", () => {
  expect(process.env.NODE_EXTRA_CA_CERTS).toBeUndefined();
  const seen = execFileSync(process.execPath, ["-p", "process.env.NODE_EXTRA_CA_CERTS ?? 'unset'"], {
    encoding: "utf8",
  });
  expect(seen.trim()).toBe("unset");
});
