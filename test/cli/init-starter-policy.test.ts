/**
 * The starter policy `init` writes (issue 35 point 6) is the one docs/policy.md documents, rule for
 * rule and comment for comment ("A starter policy"), and a valid policy file that enforces rules:
 * the shipped pipelines pass --require-policy, so the scaffolded repository has a policy from its
 * first run (test/docs/walkthrough.test.ts runs that first run on the README's walkthrough).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { STARTER_POLICY } from "../../cli/init/templates.js";
import { validatePolicyData } from "../../src/policy/schema.js";
import { runCli } from "../helpers/run-cli.js";

/** The YAML block of docs/policy.md's section "A starter policy". */
function documented(): string {
  const text = readFileSync("docs/policy.md", "utf8");
  const start = text.indexOf("\n## A starter policy\n");
  expect(start).toBeGreaterThan(0);
  const section = text.slice(start, text.indexOf("\n## ", start + 1));
  return /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
}

describe("the starter policy", () => {
  test("docs/policy.md shows exactly what init writes", () => {
    expect(documented()).toBe(STARTER_POLICY);
  });

  test("init writes it, valid, every rule commented, and validate --require-policy finds it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-starter-"));
    expect((await runCli(["init", dir, "--ci", "none"], { env: {} })).code).toBe(0);
    const text = readFileSync(join(dir, "campaigns/campaignctl.policy.yaml"), "utf8");
    expect(text.endsWith(STARTER_POLICY)).toBe(true);
    const policy = parse(text) as { rules: Record<string, unknown> };
    expect(validatePolicyData(policy)).toEqual([]);
    expect(Object.keys(policy.rules)).toEqual([
      "daily_cap_bypass",
      "min_test_contacts",
      "max_estimated_cost_usd",
      "send_window",
      "require_opt_out_language",
      "forbid_at_now",
      "require_email_consent",
    ]);
    // Each rule in force says, on the line above it, what it keeps from happening.
    const lines = STARTER_POLICY.split("\n");
    for (const rule of Object.keys(policy.rules)) {
      const at = lines.findIndex((l) => l.startsWith(`  ${rule}:`));
      expect(lines[at - 1], rule).toMatch(/^ {2}# /);
    }
    const validated = await runCli(["validate", join(dir, "campaigns"), "--require-policy"], { env: {} });
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout).toContain("policy: ");
    expect(validated.stdout).not.toContain("policy: none");
  });
});
